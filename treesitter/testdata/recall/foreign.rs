// Foreign functions and statics declared in an extern block.
use std::os::raw::c_int;

extern "C" {
    fn abs(x: c_int) -> c_int;
    static mut errno_value: c_int;
}

pub unsafe trait Zeroable {}

unsafe impl Zeroable for u32 {}

pub fn magnitude(x: i32) -> i32 {
    unsafe { abs(x) }
}
