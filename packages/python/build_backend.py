"""A PEP 517 build backend in the standard library only, for `pip install ./packages/python` offline.

pip builds a package in an isolated environment and fills it with the backend's requirements from
the package index; this backend needs none, so nothing is downloaded. It packs the pure-Python
package `psx_market_data` into a wheel (and an sdist), with the metadata from pyproject.toml.
"""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

ROOT = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "psx_market_data"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        text = f.read()
    if tomllib is not None:
        return tomllib.loads(text.decode("utf-8"))["project"]
    project = {}
    for line in text.decode("utf-8").splitlines():
        for key in ("name", "version", "description", "requires-python"):
            if line.startswith(f"{key} = "):
                project[key] = line.split("=", 1)[1].strip().strip('"')
    return project


def _metadata():
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p.get('description', '')}",
        "License: MIT",
        f"Requires-Python: {p.get('requires-python', '>=3.9')}",
    ]
    for extra, requirements in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    readme = os.path.join(ROOT, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return p, "\n".join(lines) + "\n" + body


def _dist_name(p):
    return f"{p['name'].replace('-', '_')}-{p['version']}"


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _package_files():
    base = os.path.join(ROOT, PACKAGE)
    for folder, _, files in os.walk(base):
        if "__pycache__" in folder:
            continue
        for name in sorted(files):
            if name.endswith((".py", ".typed")):
                full = os.path.join(folder, name)
                yield os.path.relpath(full, ROOT).replace(os.sep, "/"), full


def _write_wheel(wheel_directory, files):
    p, metadata = _metadata()
    dist = _dist_name(p)
    wheel_name = f"{dist}-py3-none-any.whl"
    info = f"{dist}.dist-info"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        entries = list(files) + [
            (f"{info}/METADATA", metadata.encode("utf-8")),
            (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: psx-market-data build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        ]
        for path, data in entries:
            whl.writestr(path, data)
            records.append(_record_line(path, data))
        records.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for path, full in _package_files():
        with open(full, "rb") as f:
            files.append((path, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e`: a .pth file that puts this folder on sys.path."""
    return _write_wheel(wheel_directory, [(f"{PACKAGE}_editable.pth", (ROOT + "\n").encode("utf-8"))])


def build_sdist(sdist_directory, config_settings=None):
    p, metadata = _metadata()
    dist = _dist_name(p)
    name = f"{dist}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        paths = [rel for rel, _ in _package_files()]
        paths += ["pyproject.toml", "build_backend.py", "README.md"]
        for rel in paths:
            full = os.path.join(ROOT, rel)
            if os.path.exists(full):
                tar.add(full, arcname=f"{dist}/{rel}")
        data = metadata.encode("utf-8")
        info = tarfile.TarInfo(f"{dist}/PKG-INFO")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
