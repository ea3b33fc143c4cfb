// Package shapes is a sample for the definitions extractor.
package shapes

import "math"

const Pi = 3.14159

const (
	Red Color = iota
	Green
	Blue
)

var a, b = 1, 2

type Color int

// Shape is anything with an area.
type Shape interface {
	Area() float64
	Perimeter() float64
}

type Circle struct {
	R    float64
	X, Y float64
	*Style
}

type (
	List[T any] struct{ items []T }
	Alias       = Circle
)

func NewCircle(r float64) Circle {
	return Circle{R: r}
}

func (c Circle) Area() float64 { return math.Pi * c.R * c.R }

func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

func Map[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
