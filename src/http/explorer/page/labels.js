// Labels on the explorer's charts that never cover one another: the candidates' order numbers, and the names of
// the horizontal bounds at the chart's right.
import { text } from "./dom.js";

/** Do two boxes {x, y, w, h} overlap? */
function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * The candidates' order numbers, kept legible: points closer than a label's size share one label ("8-10"), and
 * each label takes the first spot around its point that no other label or point covers. When two searches are
 * drawn, each number carries its search's prefix ("b8–10,e3").
 */
export function placeOrderLabels(parent, placed, bounds) {
  const clusters = [];
  for (const p of placed) {
    const member = { prefix: p.prefix, number: p.index + 1 };
    const near = clusters.find((c) => Math.hypot(c.cx - p.cx, c.cy - p.cy) < 12);
    if (near) near.members.push(member);
    else clusters.push({ cx: p.cx, cy: p.cy, members: [member] });
  }
  const taken = placed.map((p) => ({ x: p.cx - 6, y: p.cy - 6, w: 12, h: 12 }));
  for (const cluster of clusters) {
    const prefixes = [...new Set(cluster.members.map((m) => m.prefix))];
    const label = prefixes.map((prefix) => prefix + runs(cluster.members.filter((m) => m.prefix === prefix).map((m) => m.number))).join(",");
    const m = cluster.members.map((member) => member.prefix + member.number);
    const w = label.length * 6.2 + 2;
    const h = 12; // a 10px label's box is 11.6px high: a smaller one lets labels stacked on it touch
    const spots = [
      [8, -17], [8, 5], [-8 - w, -17], [-8 - w, 5], [-w / 2, -22], [-w / 2, 10],
      [16, -6], [-16 - w, -6], [14, -30], [-14 - w, -30], [14, 18], [-14 - w, 18],
    ].map(([dx, dy]) => ({ x: cluster.cx + dx, y: cluster.cy + dy, w, h }));
    const inside = (box) => box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w && box.y + box.h <= bounds.y + bounds.h;
    const box = spots.find((s) => inside(s) && !taken.some((t) => overlaps(s, t))) ?? null;
    if (box === null) continue; // no free spot: the number is in the point's tooltip and the table
    taken.push(box);
    text(parent, box.x + 1, box.y + h - 2.5, label, { class: "order", "data-members": m.join(",") });
  }
}

/** Candidate numbers as runs: [4, 6, 7, 8, 10] -> "4,6–8,10". */
function runs(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}–${sorted[j]}` : sorted.slice(i, j + 1).join(","));
    i = j + 1;
  }
  return parts.join(",");
}

/** Right-hand labels of horizontal lines, moved apart so that none covers another. */
export function spreadVertically(items, gap = 13) {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].y - sorted[i - 1].y < gap) sorted[i].y = sorted[i - 1].y + gap;
  }
  return sorted;
}
