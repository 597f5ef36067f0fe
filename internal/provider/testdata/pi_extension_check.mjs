// Drives the bridge extension with a fake Pi and a fake hookshim (a shell
// command chosen per case through HOOKSHIM_PI_COMMAND, read when the module
// loads, so each case imports a fresh copy).
// Usage: node pi_extension_check.mjs EXTENSION_URL
// Prints "ok" or throws.
import assert from "node:assert/strict"

const extURL = process.argv[2]
let n = 0
async function load(command, env = {}) {
  process.env.HOOKSHIM_PI_COMMAND = command
  process.env.HOOKSHIM_PI_TIMEOUT_MS = env.timeout || "5000"
  if (env.failClosed) process.env.HOOKSHIM_ON_ERROR = "deny"
  else delete process.env.HOOKSHIM_ON_ERROR
  const mod = await import(extURL + "?case=" + n++)
  const handlers = {}
  mod.default({ on: (name, fn) => { handlers[name] = fn } })
  return handlers
}
const ctx = (ui = {}) => ({
  cwd: process.cwd(),
  hasUI: Boolean(ui.confirm),
  ui: { notify: () => {}, ...ui },
  sessionManager: { getSessionId: () => "s1" },
})
const answer = (ops) => `cat >/dev/null; printf '%s' '${JSON.stringify({ ops })}'`

// block stops a tool call with the reason.
{
  const h = await load(answer([{ op: "block", reason: "no rm" }]))
  assert.deepEqual(await h.tool_call({ type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "rm -rf /" } }, ctx()), { block: true, reason: "no rm" })
}
// ask without a UI blocks; with one, the user's answer decides.
{
  const h = await load(answer([{ op: "ask", reason: "sure?" }]))
  const ev = () => ({ type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "ls" } })
  assert.deepEqual(await h.tool_call(ev(), ctx()), { block: true, reason: "sure?" })
  assert.equal(await h.tool_call(ev(), ctx({ confirm: async () => true })), undefined)
  assert.deepEqual(await h.tool_call(ev(), ctx({ confirm: async () => false })), { block: true, reason: "sure?" })
}
// set_input replaces the input in place; context waits for that call's result.
{
  const h = await load(answer([{ op: "set_input", input: { command: "ls" } }, { op: "context", text: "ctx" }]))
  const ev = { type: "tool_call", toolName: "bash", toolCallId: "c9", input: { command: "rm -rf /", timeout: 5 } }
  assert.equal(await h.tool_call(ev, ctx()), undefined)
  assert.deepEqual(ev.input, { command: "ls" })
  const res = await h.tool_result({ type: "tool_result", toolName: "bash", toolCallId: "c9", input: ev.input, content: [{ type: "text", text: "out" }], isError: false }, ctx())
  assert.deepEqual(res.content.map((c) => c.text), ["out", "ctx", "ctx"])
}
// a blocked prompt is handled; context on a prompt or session start is a
// message before the next agent start, once.
{
  const h = await load(answer([{ op: "block", reason: "closed" }]))
  assert.deepEqual(await h.input({ type: "input", text: "hi", source: "interactive" }, ctx()), { action: "handled" })
  const h2 = await load(answer([{ op: "context", text: "remember" }]))
  await h2.session_start({ type: "session_start", reason: "startup" }, ctx())
  assert.deepEqual(await h2.input({ type: "input", text: "hi", source: "interactive" }, ctx()), { action: "continue" })
  const start = await h2.before_agent_start({ type: "before_agent_start", prompt: "hi" }, ctx())
  assert.equal(start.message.content, "remember")
  assert.equal(await h2.before_agent_start({ type: "before_agent_start", prompt: "hi" }, ctx()), undefined)
}
// a prompt an extension sent is not forwarded.
{
  const h = await load(answer([{ op: "block", reason: "closed" }]))
  assert.deepEqual(await h.input({ type: "input", text: "hi", source: "extension" }, ctx()), { action: "continue" })
}
// block on compaction cancels it.
{
  const h = await load(answer([{ op: "block", reason: "keep" }]))
  assert.deepEqual(await h.session_before_compact({ type: "session_before_compact", signal: {} }, ctx()), { cancel: true })
}
// the payload: Pi's event without what is not data, the session and cwd.
{
  const h = await load(`cat > payload.json`)
  await h.tool_call({ type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "ls" }, systemPrompt: "x", messages: [] }, ctx())
  const { readFileSync } = await import("node:fs")
  const p = JSON.parse(readFileSync("payload.json", "utf8"))
  assert.equal(p.hookshim_bridge, "pi-extension")
  assert.equal(p.bridge_version, 1)
  assert.equal(p.session_id, "s1")
  assert.equal(p.cwd, process.cwd())
  assert.deepEqual(p.event, { type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "ls" } })
}
// failures are no opinion, or a block with HOOKSHIM_ON_ERROR=deny, for tool
// calls and prompts only.
for (const cmd of ["exit 3", "echo 'not json'", "sleep 5"]) {
  const ev = { type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "ls" } }
  const open = await load(cmd, { timeout: "300" })
  assert.equal(await open.tool_call({ ...ev }, ctx()), undefined)
  const closed = await load(cmd, { timeout: "300", failClosed: true })
  const got = await closed.tool_call({ ...ev }, ctx())
  assert.equal(got.block, true)
  assert.match(got.reason, /fail-closed/)
  assert.deepEqual(await closed.input({ type: "input", text: "hi", source: "interactive" }, ctx()), { action: "handled" })
  assert.equal(await closed.session_before_compact({ type: "session_before_compact" }, ctx()), undefined)
}
console.log("ok")
