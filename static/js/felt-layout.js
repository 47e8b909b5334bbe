// The round table's layout (static/js/table.js calls fitTable after each draw, and on each
// change of the table area's size: refitOnResize): the seats kept apart, then the centre
// fitted between them.
//
// The seats. A seat is drawn at its spot around the felt, centred on it; one that has grown
// (a player's split hands, a long hand) could reach over its neighbours or past the table's
// area (under the control bar). Such a seat is moved toward the table's middle (the centre is
// fitted around the seats afterwards) and, if that is not enough, drawn smaller, as little as
// it takes: never over another seat, never out of the table's area. The stacked (phone) layout
// places seats in a grid, where none can meet another: nothing is done there.

import { $ } from "./dom.js";
import { t } from "./i18n.js";

const MIN_SCALE = 0.6; // smaller than this a seat cannot be read: it is left at this size
const SCALE_IN_PLACE = 0.72; // a seat is drawn this small at its spot before it moves
const SCALE_STEP = 0.02;
const SHIFT_STEP = 6; // px
const GAP = 3; // px kept between two seats
const MIN_BAND = 90; // px: the centre's head and a line of its content

const meets = (a, b) => a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;
const within = (a, area) => a.left >= area.left && a.right <= area.right && a.top >= area.top && a.bottom <= area.bottom;
const size = (r) => r.width * r.height;

/** The box of `r` scaled by `k` about its centre, then moved by (dx, dy). */
function placed(r, k, dx, dy) {
  const cx = (r.left + r.right) / 2 + dx;
  const cy = (r.top + r.bottom) / 2 + dy;
  const w = (r.width * k) / 2;
  const h = (r.height * k) / 2;
  return { left: cx - w, right: cx + w, top: cy - h, bottom: cy + h };
}

/** Where the seat's box `r` keeps clear of `others` and inside `area`: at its spot, drawn as
 *  large as that allows down to SCALE_IN_PLACE (the centre stays clear); else the largest scale
 *  with the shortest move toward `middle` that does. Null when even the smallest scale does not. */
function bestPlace(r, others, area, middle) {
  const cx = (r.left + r.right) / 2;
  const cy = (r.top + r.bottom) / 2;
  const length = Math.hypot(middle.x - cx, middle.y - cy) || 1;
  const ux = (middle.x - cx) / length;
  const uy = (middle.y - cy) / length;
  const farthest = Math.min(length, Math.max(r.width, r.height) / 2);
  const fits = (box) => within(box, area) && !others.some((o) => meets(box, o));
  for (let k = 1; k >= SCALE_IN_PLACE - 1e-9; k -= SCALE_STEP) {
    const box = placed(r, k, 0, 0);
    if (fits(box)) return { k, dx: 0, dy: 0, box };
  }
  for (let k = 1; k >= MIN_SCALE - 1e-9; k -= SCALE_STEP) {
    for (let d = SHIFT_STEP; d <= farthest; d += SHIFT_STEP) {
      const box = placed(r, k, ux * d, uy * d);
      if (fits(box)) return { k, dx: ux * d, dy: uy * d, box };
    }
  }
  return null;
}

/** Fit the seats in `container` (the #seats box) inside `area` (the table's section), every seat
 *  first drawn at `base` times its size. */
function fitSeats(container, area, base) {
  const seats = [...container.querySelectorAll(".seat")].filter((n) => n.getClientRects().length);
  for (const seat of seats) {
    if (base < 1) seat.style.transform = `translate(-50%, -50%) scale(${base})`;
    else seat.style.removeProperty("transform");
  }
  if (!seats.length || getComputedStyle(seats[0]).position !== "absolute") return;
  const bounds = area.getBoundingClientRect();
  const felt = container.getBoundingClientRect();
  const middle = { x: (felt.left + felt.right) / 2, y: (felt.top + felt.bottom) / 2 };
  const boxes = new Map(seats.map((seat) => [seat, seat.getBoundingClientRect()]));
  // The largest seats are fitted first, each against the others as they will be drawn.
  for (const seat of [...seats].sort((a, b) => size(boxes.get(b)) - size(boxes.get(a)))) {
    const r = boxes.get(seat);
    const others = seats.filter((o) => o !== seat).map((o) => boxes.get(o));
    if (within(r, bounds) && !others.some((o) => meets(r, o))) continue;
    const best = bestPlace(r, others, bounds, middle);
    const { k, dx, dy, box } = best || { k: MIN_SCALE, dx: 0, dy: 0, box: placed(r, MIN_SCALE, 0, 0) };
    seat.style.transform = `translate(calc(-50% + ${dx.toFixed(1)}px), calc(-50% + ${dy.toFixed(1)}px)) scale(${(k * base).toFixed(3)})`;
    boxes.set(seat, box);
  }
}

/** Every seat drawn this much smaller, in turn, when the centre finds no room between them (a
 *  full table on a short screen): the centre's cards and result are never under a seat. */
const BASES = [1, 0.9, 0.8, 0.7];

/** The seats kept apart, then the centre fitted between them. */
export function fitTable() {
  for (const base of BASES) {
    fitSeats($("#seats"), $("#felt").parentElement, base);
    if (fitCenter()) return;
  }
}

/** Keep the table's centre clear of the seats: when its content would run under a seat box,
 *  fit it (narrower if that helps) into the band the seats leave free, scrolling if need be.
 *  False when even that band is too low for the centre's head and a line (MIN_BAND). */
function fitCenter() {
  const center = $("#center");
  const felt = $("#felt");
  for (const prop of ["top", "width", "max-height"]) center.style.removeProperty(prop);
  center.classList.remove("center-scrolls", "at-end");
  if (!felt.clientHeight || getComputedStyle(center).position !== "absolute") return true; // stacked
  const boxes = [...felt.querySelectorAll(".seat")]
    .filter((n) => getComputedStyle(n).visibility !== "hidden")
    .map((n) => n.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const c = center.getBoundingClientRect();
  const hits = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  if (!boxes.some((r) => hits(r, c))) return true;
  const f = felt.getBoundingClientRect();
  const top0 = f.top + felt.clientTop;
  const bottom0 = top0 + felt.clientHeight;
  const middle = (top0 + bottom0) / 2;
  const cx = c.left + c.width / 2;
  const GAP = 6;
  const band = (half) => {
    let top = top0 + GAP;
    let bottom = bottom0 - GAP;
    for (const r of boxes) {
      if (r.right <= cx - half || r.left >= cx + half) continue;
      if ((r.top + r.bottom) / 2 < middle) top = Math.max(top, r.bottom + GAP);
      else bottom = Math.min(bottom, r.top - GAP);
    }
    return { top, bottom };
  };
  // Candidate widths: as styled, and each width that keeps clear of a seat beside the centre.
  const halves = new Set([c.width / 2]);
  for (const r of boxes) {
    if (r.right <= cx && r.right > c.left) halves.add(cx - r.right - GAP);
    if (r.left >= cx && r.left < c.right) halves.add(r.left - cx - GAP);
  }
  let best = null;
  for (const half of [...halves].filter((x) => x >= 110).sort((a, b) => b - a)) {
    const { top, bottom } = band(half);
    center.style.width = `${2 * half}px`;
    const spare = bottom - top - center.scrollHeight;
    if (!best || spare > best.spare) best = { half, top, bottom, spare };
    if (spare >= 0) break; // the widest that fits
  }
  if (!best) {
    center.style.removeProperty("width");
    return false;
  }
  if (best.half * 2 < c.width - 0.5) center.style.width = `${2 * best.half}px`;
  else center.style.removeProperty("width");
  center.style.top = `${(best.top + best.bottom) / 2 - top0}px`;
  center.style.maxHeight = `${Math.max(0, best.bottom - best.top)}px`;
  markScroll();
  return best.spare >= 0 || best.bottom - best.top >= MIN_BAND;
}

/** Fit the table again, on the next frame, whenever its area changes size: a resized window,
 *  and as well what no window resize tells (the top bar taking a second row when its links stop
 *  fitting, as the bankroll beside them grows, leaves the felt less room). `after` runs after
 *  each fit. */
export function refitOnResize(after = () => {}) {
  let fitting = 0;
  const refit = () => {
    cancelAnimationFrame(fitting);
    fitting = requestAnimationFrame(() => {
      fitTable();
      after();
    });
  };
  window.addEventListener("resize", refit);
  // the seats and the centre are fitted inside the area: a fit never changes the area's size
  new ResizeObserver(refit).observe($("#felt").parentElement);
}

/** A centre that scrolls says so: a thin scrollbar, and its lower edge fades until the end;
 *  it is then a stop of the Tab key, so the keyboard scrolls it too. */
export function markScroll() {
  const center = $("#center");
  const scrolls = center.scrollHeight > center.clientHeight + 1;
  center.classList.toggle("center-scrolls", scrolls);
  if (scrolls && center.tabIndex !== 0) {
    center.tabIndex = 0;
    center.setAttribute("role", "region");
    center.setAttribute("aria-label", t("The table's centre"));
  } else if (!scrolls && center.hasAttribute("tabindex")) {
    center.removeAttribute("tabindex");
    center.removeAttribute("role");
    center.removeAttribute("aria-label");
  }
  center.classList.toggle("at-end", !scrolls || center.scrollTop + center.clientHeight >= center.scrollHeight - 2);
}
