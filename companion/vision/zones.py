"""Table zones: where on the camera picture the community row, the seats and the other areas are.

A zone is a polygon in NORMALISED image coordinates (x and y from 0 to 1, origin top-left, y down), so one
calibration serves the low-resolution watch stream and the full-resolution stills alike. Zones are checked
in order and the first that holds a card's centre wins, so a small zone (the community row) can sit inside a
larger one (a seat's wedge) without ambiguity.

Zone names: ``community``, ``showdown`` (a reveal area some mats have), ``seat:N`` (seats numbered clockwise
from the bottom edge of the picture, 0 first), ``between:N`` (between seat N and seat N+1, for variants that
put cards there).

>>> z = default_layout(4)
>>> [zone.name for zone in z.zones][:3]
['community', 'showdown', 'seat:0']
>>> z.zone_at((0.5, 0.5)), z.zone_at((0.5, 0.95)), z.zone_at((0.02, 0.5))
('community', 'seat:0', 'seat:1')
>>> Zones.from_json(z.to_json()) == z
True
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

__all__ = [
    "Zone", "Zones", "ZoneError", "default_layout", "layout_from_points", "point_in_polygon",
    "clip_to_unit", "draw_zones", "save_overlay", "DEFAULT_ASPECT",
]

DEFAULT_ASPECT = 4056 / 3040  # Pi HQ camera full frame (4:3)
FORMAT_VERSION = 1

Point = tuple[float, float]


class ZoneError(ValueError):
    """A zone file or a set of calibration points that cannot be used; the message says why."""


@dataclass(frozen=True)
class Zone:
    """One named area. ``axis`` is the direction (normalised coordinates) along which its cards are counted
    (left to right along the community row; left to right as the player in a seat sees their cards)."""

    name: str
    polygon: tuple[Point, ...]
    axis: Point = (1.0, 0.0)

    def contains(self, point: Sequence[float]) -> bool:
        return point_in_polygon(point, self.polygon)

    def order_key(self, point: Sequence[float]) -> float:
        return float(point[0]) * self.axis[0] + float(point[1]) * self.axis[1]

    @property
    def centre(self) -> Point:
        p = np.asarray(self.polygon, dtype=np.float64)
        return (float(p[:, 0].mean()), float(p[:, 1].mean()))


@dataclass(frozen=True)
class Zones:
    """The calibration of one table: its zones in priority order, and the picture aspect (width / height)
    they were made for."""

    zones: tuple[Zone, ...]
    aspect: float = DEFAULT_ASPECT
    meta: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ZoneError(f"zone name used twice: {', '.join(sorted(dup))}")

    def __getitem__(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [z.name for z in self.zones]

    @property
    def seats(self) -> list[str]:
        return [z.name for z in self.zones if z.name.startswith("seat:")]

    @property
    def card_width(self) -> float | None:
        """A card's short side as a fraction of the picture's width, as calibration measured it (or None)."""
        v = dict(self.meta).get("card_width")
        return float(v) if isinstance(v, (int, float)) and 0.0 < float(v) < 1.0 else None

    def with_card_width(self, fraction: float) -> "Zones":
        """These zones with a measured card size (short side / picture width)."""
        if not 0.0 < fraction < 1.0:
            raise ZoneError(f"card width must be a fraction of the picture's width, not {fraction!r}")
        meta = dict(self.meta)
        meta["card_width"] = round(float(fraction), 5)
        return Zones(self.zones, self.aspect, tuple(sorted(meta.items())))

    def zone_at(self, point: Sequence[float]) -> str | None:
        """Name of the first zone that holds ``point`` (normalised x, y), or None."""
        for z in self.zones:
            if z.contains(point):
                return z.name
        return None

    # ---- JSON -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "gang-companion zones",
            "version": FORMAT_VERSION,
            "aspect": self.aspect,
            "meta": dict(self.meta),
            "zones": [
                {"name": z.name, "polygon": [[x, y] for x, y in z.polygon], "axis": list(z.axis)}
                for z in self.zones
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Zones":
        try:
            if data.get("version", FORMAT_VERSION) > FORMAT_VERSION:
                raise ZoneError(f"zone file version {data['version']} is newer than this program understands")
            zones = []
            for item in data["zones"]:
                poly = tuple((float(x), float(y)) for x, y in item["polygon"])
                if len(poly) < 3:
                    raise ZoneError(f"zone {item['name']!r} needs at least 3 points, has {len(poly)}")
                ax = item.get("axis", (1.0, 0.0))
                zones.append(Zone(str(item["name"]), poly, (float(ax[0]), float(ax[1]))))
            meta = tuple(sorted(dict(data.get("meta", {})).items()))
            return cls(tuple(zones), float(data.get("aspect", DEFAULT_ASPECT)), meta)
        except ZoneError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ZoneError(f"not a zone file: {exc!r}") from exc

    @classmethod
    def from_json(cls, text: str) -> "Zones":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ZoneError(f"zone file is not valid JSON ({exc})") from exc
        return cls.from_dict(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(self.to_json() + "\n")
        tmp.replace(p)  # never leave half a calibration behind

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Zones":
        p = Path(path)
        if not p.exists():
            raise ZoneError(f"no zone file at {p} (run 'gang-companion calibrate' first)")
        return cls.from_json(p.read_text())

    def transformed(self, homography: np.ndarray, aspect: float | None = None) -> "Zones":
        """The zones seen through a 3x3 homography (normalised -> normalised), e.g. a tilted camera."""
        out = []
        for z in self.zones:
            pts = _apply_h(homography, np.asarray(z.polygon, dtype=np.float64))
            c = np.asarray(z.centre)
            a = _apply_h(homography, np.stack([c, c + 0.01 * np.asarray(z.axis)]))
            d = a[1] - a[0]
            n = float(np.hypot(*d)) or 1.0
            poly = clip_to_unit([(float(x), float(y)) for x, y in pts])
            if len(poly) >= 3:
                out.append(Zone(z.name, tuple(poly), (float(d[0] / n), float(d[1] / n))))
        return Zones(tuple(out), self.aspect if aspect is None else aspect, self.meta)


def _apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ np.asarray(h, dtype=np.float64).T
    return p[:, :2] / p[:, 2:3]


def point_in_polygon(point: Sequence[float], polygon: Sequence[Sequence[float]]) -> bool:
    """Even-odd rule; points on an edge may fall either way.

    >>> square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    >>> point_in_polygon((0.5, 0.5), square), point_in_polygon((2, 0.5), square)
    (True, False)
    """
    x, y = float(point[0]), float(point[1])
    inside = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                inside = not inside
    return inside


def clip_to_unit(polygon: Sequence[Point]) -> list[Point]:
    """Sutherland-Hodgman clip of a polygon to the unit square (the picture)."""
    def clip(poly: list[Point], inside: Any, cross: Any) -> list[Point]:
        out: list[Point] = []
        for i in range(len(poly)):
            cur, prev = poly[i], poly[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
        return out

    def at_x(x0: float) -> Any:
        return lambda a, b: (x0, a[1] + (b[1] - a[1]) * (x0 - a[0]) / (b[0] - a[0]))

    def at_y(y0: float) -> Any:
        return lambda a, b: (a[0] + (b[0] - a[0]) * (y0 - a[1]) / (b[1] - a[1]), y0)

    poly = [(float(x), float(y)) for x, y in polygon]
    for inside, cross in ((lambda p: p[0] >= 0.0, at_x(0.0)), (lambda p: p[0] <= 1.0, at_x(1.0)),
                          (lambda p: p[1] >= 0.0, at_y(0.0)), (lambda p: p[1] <= 1.0, at_y(1.0))):
        if not poly:
            break
        poly = clip(poly, inside, cross)
    return poly


# ---- layouts ------------------------------------------------------------------------------------------

def _sector(cx: float, cy: float, a0: float, a1: float, aspect: float, steps: int = 12) -> list[Point]:
    """A wedge from the centre out past the picture's edge, angles in radians in aspect-corrected units."""
    far = 3.0
    pts: list[Point] = [(cx, cy)]
    for i in range(steps + 1):
        a = a0 + (a1 - a0) * i / steps
        pts.append((cx + far * math.cos(a) / aspect, cy + far * math.sin(a)))
    return clip_to_unit(pts)


def _rect(cx: float, cy: float, half_w: float, half_h: float) -> tuple[Point, ...]:
    return ((cx - half_w, cy - half_h), (cx + half_w, cy - half_h),
            (cx + half_w, cy + half_h), (cx - half_w, cy + half_h))


def seat_angle(i: int, n_seats: int, first: float = math.pi / 2) -> float:
    """Angle of seat ``i`` (radians, y down so increasing is clockwise on the picture; seat 0 at the bottom)."""
    return first + 2 * math.pi * i / n_seats


def default_layout(n_seats: int = 4, aspect: float = DEFAULT_ASPECT, showdown: bool = True,
                   between: bool = True, seat_share: float = 0.7, first_seat: float = math.pi / 2) -> Zones:
    """Zones for a standard mat with the camera straight above its middle: the community row across the
    centre, an optional showdown strip just below it, and a wedge per seat (``seat_share`` of the angle
    between neighbours; the rest are the between-seat zones)."""
    if not 1 <= n_seats <= 12:
        raise ZoneError(f"a table has 1 to 12 seats, not {n_seats}")
    zones = [Zone("community", _rect(0.5, 0.5, 0.30, 0.13))]
    if showdown:
        zones.append(Zone("showdown", _rect(0.5, 0.695, 0.2, 0.055)))
    step = 2 * math.pi / n_seats
    for i in range(n_seats):
        a = seat_angle(i, n_seats, first_seat)
        half = step * (seat_share if between else 1.0) / 2
        axis = (math.sin(a), -math.cos(a))  # left to right as the player in this seat sees the cards
        n = math.hypot(axis[0] / aspect, axis[1])
        zones.append(Zone(f"seat:{i}", tuple(_sector(0.5, 0.5, a - half, a + half, aspect)),
                          (axis[0] / aspect / n, axis[1] / n)))
    if between and n_seats > 1:
        for i in range(n_seats):
            a = seat_angle(i, n_seats, first_seat) + step / 2
            half = step * (1 - seat_share) / 2
            zones.append(Zone(f"between:{i}", tuple(_sector(0.5, 0.5, a - half, a + half, aspect))))
    return Zones(tuple(zones), aspect, (("layout", "default"), ("seats", n_seats)))


def layout_from_points(community: Sequence[Sequence[float]], seats: Sequence[Sequence[float]],
                       image_size: tuple[int, int] | None = None, showdown: Sequence[Sequence[float]] | None = None,
                       between: bool = True, seat_share: float = 0.7) -> Zones:
    """Zones from calibration points: the four corners of the community row, one point per seat (where that
    player's cards lie, in seat order) and optionally the four corners of a showdown area.

    Points are pixels of a picture of ``image_size`` (width, height), or normalised when ``image_size`` is None.
    Each seat gets a wedge from the community row's centre towards its point, splitting the angle half-way to
    its neighbours (``seat_share`` of it for the seat, the rest between seats).

    >>> z = layout_from_points([(100, 200), (500, 200), (500, 280), (100, 280)], [(300, 450), (300, 30)], (600, 480))
    >>> z.zone_at((0.5, 0.5)), z.zone_at((0.5, 0.95)), z.zone_at((0.5, 0.02))
    ('community', 'seat:0', 'seat:1')
    """
    def norm(points: Sequence[Sequence[float]]) -> list[Point]:
        out = []
        for p in points:
            if len(p) != 2:
                raise ZoneError(f"a point has two coordinates, not {list(p)!r}")
            x, y = float(p[0]), float(p[1])
            if image_size is not None:
                x, y = x / image_size[0], y / image_size[1]
            if not (-0.01 <= x <= 1.01 and -0.01 <= y <= 1.01):
                raise ZoneError(f"point {tuple(p)} lies outside the picture")
            out.append((x, y))
        return out

    comm = norm(community)
    if len(comm) != 4:
        raise ZoneError(f"the community row needs its 4 corners, got {len(comm)} points")
    seat_pts = norm(seats)
    if not seat_pts:
        raise ZoneError("give one point per seat")
    aspect = image_size[0] / image_size[1] if image_size else DEFAULT_ASPECT
    cx = sum(p[0] for p in comm) / 4
    cy = sum(p[1] for p in comm) / 4
    zones = [Zone("community", tuple(comm), _unit((comm[1][0] - comm[0][0], comm[1][1] - comm[0][1])))]
    if showdown is not None:
        sd = norm(showdown)
        if len(sd) != 4:
            raise ZoneError(f"the showdown area needs its 4 corners, got {len(sd)} points")
        zones.append(Zone("showdown", tuple(sd), _unit((sd[1][0] - sd[0][0], sd[1][1] - sd[0][1]))))
    angles = [math.atan2(y - cy, (x - cx) * aspect) for x, y in seat_pts]
    n = len(angles)
    between_zones = []
    for i, a in enumerate(angles):
        if n == 1:
            lo, hi = a - math.pi, a + math.pi
        else:
            prev = angles[i - 1] if i > 0 else angles[-1]
            nxt = angles[(i + 1) % n]
            gap_next = (nxt - a) % (2 * math.pi)
            gap_prev = (a - prev) % (2 * math.pi)
            lo = a - gap_prev / 2 * (seat_share if between else 1.0)
            hi = a + gap_next / 2 * (seat_share if between else 1.0)
            if between:
                next_lo = a + gap_next - gap_next / 2 * seat_share  # where the next seat's wedge starts
                between_zones.append(Zone(f"between:{i}", tuple(_sector(cx, cy, hi, next_lo, aspect))))
        axis = _unit((math.sin(a) / aspect, -math.cos(a)))  # the seat's player's left to right
        zones.append(Zone(f"seat:{i}", tuple(_sector(cx, cy, lo, hi, aspect)), axis))
    zones.extend(between_zones)
    return Zones(tuple(zones), aspect, (("layout", "points"), ("seats", n)))


def _unit(v: tuple[float, float]) -> Point:
    n = math.hypot(*v) or 1.0
    return (v[0] / n, v[1] / n)


# ---- pictures -----------------------------------------------------------------------------------------

_COLOURS = {"community": (0, 200, 255), "showdown": (255, 0, 255), "seat": (0, 255, 0), "between": (255, 160, 0)}


def draw_zones(image: np.ndarray, zones: Zones, thickness: int | None = None) -> np.ndarray:
    """A copy of ``image`` (BGR) with each zone outlined, lightly tinted and labelled."""
    import cv2

    out = image.copy()
    h, w = out.shape[:2]
    t = thickness or max(1, round(min(w, h) / 300))
    tint = out.copy()
    for z in zones.zones:
        colour = _COLOURS.get(z.name.split(":")[0], (255, 255, 255))
        pts = np.round(np.asarray(z.polygon) * [w, h]).astype(np.int32)
        cv2.fillPoly(tint, [pts], colour)
    out = cv2.addWeighted(out, 0.8, tint, 0.2, 0)
    for z in zones.zones:
        colour = _COLOURS.get(z.name.split(":")[0], (255, 255, 255))
        pts = np.round(np.asarray(z.polygon) * [w, h]).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, t, cv2.LINE_AA)
        # Label near the zone's centre, pulled inside the picture.
        cx, cy = z.centre
        cx = min(max(cx, 0.06), 0.94)
        cy = min(max(cy, 0.04), 0.96)
        scale = max(0.4, min(w, h) / 800)
        cv2.putText(out, z.name, (int(cx * w) - int(30 * scale), int(cy * h)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (0, 0, 0), t + 2, cv2.LINE_AA)
        cv2.putText(out, z.name, (int(cx * w) - int(30 * scale), int(cy * h)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    colour, t, cv2.LINE_AA)
    return out


def save_overlay(image: np.ndarray, zones: Zones, path: str | os.PathLike[str]) -> Path:
    """Write the picture with the zones drawn on it to ``path`` (PNG); what ``calibrate`` shows the crew."""
    import cv2

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(p), draw_zones(image, zones)):
        raise ZoneError(f"cannot write {p}")
    return p


def polygons_px(zones: Zones, size: tuple[int, int]) -> dict[str, np.ndarray]:
    """Each zone's polygon in pixels of a picture of ``size`` (width, height)."""
    return {z.name: np.asarray(z.polygon) * [size[0], size[1]] for z in zones.zones}


def names_in_order(zones: Iterable[Zone]) -> list[str]:
    return [z.name for z in zones]
