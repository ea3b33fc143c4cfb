package agent

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestSessionHoldsNoLock holds invariant 10 (AGENTS.md): no mutex guards
// session state; the actor owns it. It walks the Session struct and every
// struct it holds by value and fails on a sync.Mutex or sync.RWMutex.
// Pointers are not followed: what a session points to (the outbox, the
// tool registry) is its own object with its own rules.
func TestSessionHoldsNoLock(t *testing.T) {
	locks := []reflect.Type{reflect.TypeFor[sync.Mutex](), reflect.TypeFor[sync.RWMutex]()}
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		for _, l := range locks {
			if typ == l {
				t.Errorf("%s is a %s: session state belongs to the actor (Session.do)", path, typ)
				return
			}
		}
		switch typ.Kind() {
		case reflect.Struct:
			if typ.PkgPath() != reflect.TypeFor[Session]().PkgPath() && !strings.HasPrefix(typ.PkgPath(), "github.com/tandemhq/tandem/agent") {
				return // a library type's insides are its own business
			}
			for i := range typ.NumField() {
				f := typ.Field(i)
				walk(path+"."+f.Name, f.Type)
			}
		case reflect.Array:
			walk(path+"[]", typ.Elem())
		}
	}
	walk("Session", reflect.TypeFor[Session]())
}
