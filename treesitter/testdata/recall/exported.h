// A C++ header with a .h name and an export macro on its classes.
#pragma once
namespace paint {

class PAINT_API Canvas : public Surface {
 public:
  Canvas();
  static Canvas *create(int w, int h);
  int width() const;
 private:
  int width_;
};

template <class T> struct traits { typedef T value_type; };
template <> struct traits<char> { typedef int value_type; };

}  // namespace paint
