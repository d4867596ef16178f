// DOM helpers of the explorer: an element by id, and SVG elements built with their attributes.

const SVG = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

export function el(name, attributes = {}, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

export function text(parent, x, y, content, attributes = {}) {
  const node = el("text", { x, y, ...attributes }, parent);
  node.textContent = content;
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

