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

pub struct Heap<T> {
    items: Vec<T>,
}

impl<'a, T> IntoIterator for &'a Heap<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
