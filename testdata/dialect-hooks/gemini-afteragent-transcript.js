#!/usr/bin/env node
// Gemini CLI AfterAgent: read the session file at transcript_path (one
// JSON document of messages) and ask for another turn when the last
// gemini message left a TODO and a tool call of the turn failed; the
// stop_hook_active guard lets the second one end.
// In the style of the AfterAgent examples of Gemini CLI's hooks guide
// (google-gemini/gemini-cli docs/hooks/writing-hooks.md).
const fs = require("fs");

let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const data = JSON.parse(input);
  if (data.stop_hook_active) {
    console.log("{}");
    return;
  }
  let session;
  try {
    session = JSON.parse(fs.readFileSync(data.transcript_path, "utf8"));
  } catch (e) {
    console.error(`cannot read transcript: ${e.message}`);
    console.log("{}");
    return;
  }
  const msgs = (session.messages || []).filter((m) => m.type === "gemini");
  const last = msgs[msgs.length - 1];
  const calls = msgs.flatMap((m) => m.toolCalls || []);
  const text = typeof last?.content === "string" ? last.content : "";
  const summary = `${msgs.length} gemini messages, ${calls.length} tool calls (${calls.map((c) => c.name).join(", ")})`;
  if (/TODO/.test(text)) {
    console.log(JSON.stringify({ decision: "deny", reason: `The last answer still has a TODO. ${summary}` }));
    return;
  }
  console.log(JSON.stringify({ systemMessage: summary }));
});
