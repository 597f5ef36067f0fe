// Print the text of the last assistant message of a Claude Code
// transcript (JSON lines), reading only its end. Used by
// stop-last-message.sh.
import { closeSync, openSync, readSync, statSync } from "node:fs";

const path = process.argv[2];
if (!path) process.exit(0);
const size = statSync(path).size;
const want = Math.min(size, 256 * 1024);
const buf = Buffer.alloc(want);
const fd = openSync(path, "r");
readSync(fd, buf, 0, want, size - want);
closeSync(fd);
let text = buf.toString("utf8");
if (want < size) text = text.slice(text.indexOf("\n") + 1);
const lines = text.split("\n").filter((l) => l.trim());
for (let i = lines.length - 1; i >= 0; i--) {
  let entry;
  try {
    entry = JSON.parse(lines[i]);
  } catch {
    continue;
  }
  if (entry.type !== "assistant" || !Array.isArray(entry.message?.content)) continue;
  const texts = entry.message.content.filter((b) => b.type === "text" && b.text).map((b) => b.text);
  if (texts.length) {
    process.stdout.write(texts.join("\n").slice(0, 200));
    process.exit(0);
  }
}
