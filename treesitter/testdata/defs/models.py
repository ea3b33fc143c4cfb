"""Models."""
import dataclasses

MAX_SIZE = 100
default_name = "x"


@dataclasses.dataclass
class Point:
    x: int = 0
    scale = 2

    def __init__(self, x):
        self.x = x

    @property
    def norm(self):
        def helper():
            return 1
        return helper()

    class Meta:
        def inner(self):
            pass


async def fetch(url: str) -> bytes:
    return b""


def broken(:
    pass
