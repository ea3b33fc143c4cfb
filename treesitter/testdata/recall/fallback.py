"""Module-level definitions behind version checks and import fallbacks."""
import sys

if sys.version_info >= (3, 11):
    class Meta(type):
        def describe(cls):
            return cls.__name__
elif sys.version_info >= (3, 8):
    def legacy_helper():
        return None
else:
    def ancient_helper():
        return None

try:
    from fastjson import loads
except ImportError:
    def loads(text):
        return text
finally:
    CLEANUP = True

with open(__file__) as _f:
    HEADER = _f.readline()
