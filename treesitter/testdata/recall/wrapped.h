/* A library header as many are written: C++ guard, export macros,
   attribute macros after prototypes, glibc-style enums. */
#ifndef WIDGET_H
#define WIDGET_H
#ifdef __cplusplus
extern "C" {
#endif

#define WIDGET_MAX 32

enum
{
  WIDGET_RED = 1,
#define WIDGET_RED WIDGET_RED
  WIDGET_GREEN,
#define WIDGET_GREEN WIDGET_GREEN
  WIDGET_BLUE
};

typedef struct {
  int width;
  int height;
} widget_size;

WAPI void WAPIENTRY widget_draw (int id, widget_size size);
typedef void (WAPIENTRYP PFNWIDGETDRAWPROC) (int id, widget_size size);
extern int widget_count (const char *__restrict name) __THROW __nonnull ((1));

#ifdef __cplusplus
}
#endif
#endif
