package app

trait Shape {
  def area: Double
}

case class Circle(r: Double) extends Shape {
  val pi = 3.14
  def area: Double = pi * r * r
}

object Main {
  type Name = String
  var count = 0
  def main(args: Array[String]): Unit = {
    println("hi")
  }
}
