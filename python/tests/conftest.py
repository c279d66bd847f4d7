import pytest

import weir


def _vulkan():
    try:
        return weir.Backend("vulkan")
    except weir.Unavailable as e:
        return e


@pytest.fixture(scope="session")
def vulkan():
    """An open vulkan backend (lavapipe in CI), or a skip with weir's reason."""
    b = _vulkan()
    if isinstance(b, Exception):
        pytest.skip(f"vulkan unavailable: {b}")
    return b


@pytest.fixture(scope="session")
def torch():
    return pytest.importorskip("torch")
