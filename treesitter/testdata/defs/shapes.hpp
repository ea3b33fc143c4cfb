#pragma once
#include <string>

namespace geo {

template <typename T>
class Shape {
public:
    Shape() = default;
    virtual ~Shape();
    virtual T area() const = 0;
    std::string name;
private:
    int id_;
};

struct Point { int x, y; };

using Coord = double;

template <typename T>
T max_of(T a, T b) { return a > b ? a : b; }

namespace detail {
inline int helper() { return 1; }
}

}  // namespace geo

template <typename T>
T geo::Shape<T>::area() const { return T(); }

void geo::Point_print(int x) {}
