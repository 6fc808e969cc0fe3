"""The one decorator of the fast engine's numba code, and its cache's freshness.

Every kernel of ``stud.fast`` is ``@kernel``: ``numba.njit(cache=True, nogil=True)``. Numba
keeps compiled machine code in ``__pycache__`` and reloads it while the kernel's own file is
unchanged, but a kernel compiled with the functions it calls inside it, and numba does not
notice when one of those, in another file of this package, changes: the stale code would run.
So a kernel of this package is fresh only while every file of the package that holds kernels
(or the constants they compile in, ``layout.py``) is unchanged: its cache's stamp is a hash of
them all.

Importing this module imports numba; nothing is compiled until a kernel is first called.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import caching

F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE = Path(__file__).resolve().parent


@cache
def _package_stamp() -> str:
    """A hash of the package's compiled source files (read once a process)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.glob("*.py")):
        source = path.read_bytes()
        if path.name in ("compiled.py", "layout.py") or b"from stud.fast.compiled import" \
                in source:
            digest.update(path.name.encode())
            digest.update(source)
    return digest.hexdigest()


def _ours(py_file: str) -> bool:
    return Path(py_file).resolve().parent == _PACKAGE


class _PackageStamp:
    """A locator mixin: the stamp of a kernel of this package is the package's stamp."""

    def get_source_stamp(self) -> str:
        return _package_stamp()


def _stamped(base: type) -> type:
    class Locator(_PackageStamp, base):
        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            return super().from_function(py_func, py_file) if _ours(py_file) else None

    Locator.__name__ = f"StudFast{base.__name__}"
    return Locator


# The user's NUMBA_CACHE_DIR first, then __pycache__, as numba itself looks: ours go in front
# of numba's own locators and claim only the files of this package. Numba without these
# internals still caches, by each file's own stamp.
_LOCATORS = getattr(caching.CacheImpl, "_locator_classes", None)
if isinstance(_LOCATORS, list) and not any(
        getattr(c, "__name__", "").startswith("StudFast") for c in _LOCATORS):
    _LOCATORS[0:0] = [_stamped(base) for base in (caching.UserProvidedCacheLocator,
                                                  caching.InTreeCacheLocator)]


def kernel(function: F) -> F:
    """Compile ``function`` with numba when first called, cached across processes.

    A kernel allocates nothing, so it is compiled without numba's reference counting
    (``_nrt=False``): counting the arrays passed to every call, with atomic operations, cost
    more than most of these functions' bodies (a call 50 ns, the body 2). Only an ``entry``
    may allocate.
    """
    return cast(F, _njit(cache=True, nogil=True, **_NO_COUNTING)(function))


def entry(function: F) -> F:
    """Compile a kernel that allocates (its scratch space, its results): one called from
    Python, with numba's reference counting."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def _counting_option() -> dict[str, bool]:
    """numba's option to compile without reference counting, where this numba has it (a
    numba without it compiles the same kernels, slower)."""
    from numba.core.cpu import CPUTargetOptions

    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


_NO_COUNTING = _counting_option()
_njit: Any = numba.njit  # its stubs do not know the private option
