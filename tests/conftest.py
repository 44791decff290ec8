import os
import sys
import tempfile

# The app's rings (Kivy, gpiozero) read these at import: tests never open a window or touch real pins.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("GANG_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
