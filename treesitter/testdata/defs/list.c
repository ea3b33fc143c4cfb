#include <stdlib.h>

#define MAX_ITEMS 64
#define SQUARE(x) ((x) * (x))

struct node {
	int value;
	struct node *next;
};

typedef struct {
	struct node *head;
	size_t len;
} list_t;

enum color { RED, GREEN };

static int counter = 0;

int list_push(list_t *l, int v);
void list_free(list_t *l);

int
list_push(list_t *l, int v)
{
	struct node *n = malloc(sizeof *n);
	return 0;
}

static char *strdup_safe(const char *s) { return 0; }

int (*handler)(int);

#ifdef DEBUG
void debug_dump(list_t *l) {}
#endif
