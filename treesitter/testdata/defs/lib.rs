use std::fmt;

pub const MAX: usize = 10;
static mut COUNTER: u32 = 0;

#[derive(Debug, Clone)]
pub struct Point<T> {
    pub x: T,
    y: T,
}

pub enum Shape {
    Circle(f64),
    Square { side: f64 },
}

pub trait Area {
    fn area(&self) -> f64;
    fn name(&self) -> String {
        "shape".into()
    }
}

impl<T: fmt::Display> fmt::Display for Point<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Area for Shape {
    fn area(&self) -> f64 { 0.0 }
}

pub mod geometry {
    pub fn distance(a: f64, b: f64) -> f64 {
        (a - b).abs()
    }
}

type Result<T> = std::result::Result<T, String>;

macro_rules! square {
    ($x:expr) => { $x * $x };
}

pub fn main() {
    fn nested() {}
}
