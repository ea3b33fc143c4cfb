import Foundation

protocol Shape {
    func area() -> Double
}

struct Circle: Shape {
    let radius: Double
    func area() -> Double { return 3.14 * radius * radius }
}

class View {
    var title: String = ""
    init() {}
    func render() {}
}

enum Direction { case north, south }

extension Circle {
    func diameter() -> Double { radius * 2 }
}

typealias Point = (Double, Double)

func main() {}
