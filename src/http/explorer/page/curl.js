// The request as a curl line under the form, and its Copy button: what the page asked, to run it elsewhere.
import { $ } from "./dom.js";

/** The request as a shell command: single quotes, with any single quote in it escaped for the shell. */
export function curlLine(url, live = false) {
  const absolute = new URL(url, window.location.origin).href;
  const stream = live ? "-N -H 'Accept: text/event-stream' " : "";
  return `curl ${stream}'${absolute.replace(/'/g, "'\\''")}'`;
}

export async function copyCurl() {
  const line = $("curl-line").textContent;
  try {
    await navigator.clipboard.writeText(line);
    $("copy-curl").textContent = "Copied";
  } catch {
    // No clipboard (an insecure origin, a denied permission): select the line for a manual copy.
    const range = document.createRange();
    range.selectNodeContents($("curl-line"));
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    $("copy-curl").textContent = "Selected: copy it";
  }
  setTimeout(() => ($("copy-curl").textContent = "Copy"), 2000);
}
