"""Read an STL and check what a slicer and a maker rely on: a closed surface, its size, and the
holes a part must have.

A mesh library (trimesh, numpy-stl) would bring numpy and tens of megabytes for three questions
that fit on a page: is every edge shared by exactly two faces, in opposite directions (a closed,
consistently oriented, "manifold" surface that slicers fill without guessing); what box does it
fill; and which round holes does a horizontal cut through it show, where and how wide. The
holes are measured on the mesh OpenSCAD wrote, so a model that cuts the wrong hole fails even
when the data file is right.
"""

from __future__ import annotations

import math
import struct
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float, float]
Triangle = tuple[Point, Point, Point]


def read_stl(path: Path) -> list[Triangle]:
    data = path.read_bytes()
    if data[:5] == b"solid" and b"facet" in data[:1000]:
        return _read_ascii(data.decode("ascii"))
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * count:
        raise ValueError(f"{path}: not an STL file (binary size does not match {count} faces)")
    triangles = []
    for i in range(count):
        v = struct.unpack_from("<9f", data, 84 + 50 * i + 12)
        triangles.append(((v[0], v[1], v[2]), (v[3], v[4], v[5]), (v[6], v[7], v[8])))
    return triangles


def write_stl(path: Path, triangles: list[Triangle]) -> None:
    """A binary STL with the faces in a fixed order (each starting at its least corner), so a
    model rendered again unchanged writes the same bytes: OpenSCAD's own order varies from run
    to run, and a committed STL would change with every render."""
    faces = sorted(t[t.index(min(t)) :] + t[: t.index(min(t))] for t in triangles)
    out = bytearray(b"tinker-tray".ljust(80, b" ") + struct.pack("<I", len(faces)))
    for a, b, c in faces:
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        length = math.hypot(*n) or 1.0
        out += struct.pack("<12fH", *(x / length for x in n), *a, *b, *c, 0)
    path.write_bytes(bytes(out))


def _read_ascii(text: str) -> list[Triangle]:
    points = [
        tuple(float(n) for n in line.split()[1:4])
        for line in text.splitlines()
        if line.lstrip().startswith("vertex")
    ]
    return [tuple(points[i : i + 3]) for i in range(0, len(points), 3)]  # type: ignore[misc]


def open_edges(triangles: list[Triangle]) -> list[tuple[Point, Point]]:
    """Edges not matched by exactly one edge running the other way: empty for a closed,
    consistently oriented surface. (A hole leaves an edge unmatched; a flipped face or a
    non-manifold edge, shared by four faces, leaves some counted twice.)"""
    directed = Counter(
        (a, b) for t in triangles for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))
    )
    return [
        edge for edge, n in directed.items() if n != 1 or directed.get((edge[1], edge[0]), 0) != 1
    ]


def bounds(triangles: list[Triangle]) -> tuple[Point, Point]:
    xs, ys, zs = zip(*(p for t in triangles for p in t), strict=True)
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))


def volume(triangles: list[Triangle]) -> float:
    """The volume a closed surface encloses (mm³): the sum of the tetrahedra each face makes
    with the origin."""
    total = 0.0
    for a, b, c in triangles:
        total += (
            a[0] * (b[1] * c[2] - b[2] * c[1])
            - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0])
        )
    return total / 6


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    d: float


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0] * 1e4), round(p[1] * 1e4)


def section(triangles: list[Triangle], z: float) -> list[list[tuple[float, float]]]:
    """The closed outlines where the plane at height `z` cuts the surface (pick a z between two
    vertex heights)."""
    points: dict[tuple[int, int], tuple[float, float]] = {}
    links: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for tri in triangles:
        cut = []
        for a, b in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])):
            if (a[2] - z) * (b[2] - z) < 0:
                a, b = min(a, b), max(a, b)  # both faces of an edge cut it at the same point
                t = (z - a[2]) / (b[2] - a[2])
                point = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                points[_key(point)] = point
                cut.append(_key(point))
        if len(cut) == 2 and cut[0] != cut[1]:
            links[cut[0]].append(cut[1])
            links[cut[1]].append(cut[0])
    loops, seen = [], set()
    for start in links:
        if start in seen:
            continue
        loop, key = [], start
        while key not in seen:
            seen.add(key)
            loop.append(points[key])
            key = next((k for k in links[key] if k not in seen), start)
        loops.append(loop)
    return loops


def circles(triangles: list[Triangle], z: float, tolerance: float = 0.02) -> list[Circle]:
    """The round outlines of the section at `z` (every corner as far from the middle as the
    others, give or take `tolerance` mm): holes and posts, as OpenSCAD's cylinders cut them."""
    found = []
    for loop in section(triangles, z):
        if len(loop) < 12:
            continue
        xs, ys = [p[0] for p in loop], [p[1] for p in loop]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        radii = [math.hypot(p[0] - cx, p[1] - cy) for p in loop]
        if max(radii) - min(radii) <= tolerance:
            # The cylinder's corners lie on its radius; the cut between them runs inside it.
            found.append(Circle(cx, cy, 2 * max(radii)))
    return found


def by_diameter(found: list[Circle], tolerance: float = 0.05) -> dict[float, list[Circle]]:
    groups: dict[float, list[Circle]] = defaultdict(list)
    for circle in found:
        match = next((d for d in groups if abs(d - circle.d) <= tolerance), circle.d)
        groups[match].append(circle)
    return dict(groups)
