// Drives the bridge plugin with a fake OpenCode and a fake hookshim (a
// shell command chosen per case through HOOKSHIM_OPENCODE_COMMAND, or the
// rendered tool's own variable, read when the plugin module loads, so each
// case imports a fresh copy).
// Usage: node opencode_plugin_check.mjs PLUGIN_URL [ENV_PREFIX BRIDGE_ID]
// Prints "ok" or throws.
import assert from "node:assert/strict"

const pluginURL = process.argv[2]
const envPrefix = process.argv[3] || "HOOKSHIM_OPENCODE_"
const bridgeID = process.argv[4] || "opencode-plugin"
let n = 0
async function load(command, env = {}) {
  process.env[envPrefix + "COMMAND"] = command
  process.env[envPrefix + "TIMEOUT_MS"] = env.timeout || "5000"
  if (env.failClosed) process.env.HOOKSHIM_ON_ERROR = "deny"
  else delete process.env.HOOKSHIM_ON_ERROR
  const mod = await import(pluginURL + "?case=" + n++)
  const calls = { prompts: [], toasts: [] }
  const client = {
    session: { prompt: async (a) => { calls.prompts.push(a) } },
    tui: { showToast: async (a) => { calls.toasts.push(a) } },
  }
  const hooks = await mod.HookshimBridge({ client, directory: process.cwd(), worktree: process.cwd() })
  return { hooks, calls }
}
const answer = (ops) => `cat >/dev/null; printf '%s' '${JSON.stringify({ ops })}'`

// throw blocks a tool call with the reason.
{
  const { hooks } = await load(answer([{ op: "throw", message: "no rm" }]))
  await assert.rejects(hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "rm -rf /" } }), /no rm/)
}
// merge_args with replace drops keys the policy left out.
{
  const { hooks } = await load(answer([{ op: "merge_args", args: { command: "ls" }, replace: true }]))
  const out = { args: { command: "rm -rf /", description: "x" } }
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, out)
  assert.deepEqual(out.args, { command: "ls" })
}
// throw on chat.message also shows a toast.
{
  const { hooks, calls } = await load(answer([{ op: "throw", message: "closed" }]))
  await assert.rejects(hooks["chat.message"]({ sessionID: "s" }, { message: {}, parts: [] }), /closed/)
  assert.equal(calls.toasts.length, 1)
}
// an op that does not fit the hook is ignored.
{
  const { hooks } = await load(answer([{ op: "throw", message: "late" }, { op: "append_output", text: "ctx" }]))
  const out = { title: "t", output: "result", metadata: {} }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c", args: {} }, out)
  assert.equal(out.output, "result\n\nctx")
}
// session_system: remembered once per text, added to every later system prompt
// of that session, and session.created is awaited before the first one.
{
  const ops = JSON.stringify({ ops: [{ op: "session_system", text: "remember" }] })
  const { hooks } = await load(`p=$(cat); case "$p" in *session.created*) sleep 0.3; printf '%s' '${ops}';; esac`)
  hooks.event({ event: { type: "session.created", properties: { sessionID: "s1", info: { id: "s1" } } } })
  const sys1 = { system: ["base"] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "s1", model: {} }, sys1)
  assert.deepEqual(sys1.system, ["base", "remember"])
  await hooks["chat.message"]({ sessionID: "s1" }, { message: {}, parts: [] })
  const sys2 = { system: ["base"] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "s1", model: {} }, sys2)
  assert.deepEqual(sys2.system, ["base", "remember"])
  const other = { system: ["base"] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "s2", model: {} }, other)
  assert.deepEqual(other.system, ["base"])
}
// prompt on session.idle continues, says stop_hook_active next time, and
// stops after five continuations in a row.
{
  const rec = `${process.env.TMPDIR || "/tmp"}/hs-oc-check-${process.pid}.jsonl`
  const { hooks, calls } = await load(`p=$(cat); printf '%s\\n' "$p" >> ${rec}; printf '%s' '${JSON.stringify({ ops: [{ op: "prompt", text: "keep going" }] })}'`)
  for (let i = 0; i < 7; i++) await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } })
  assert.equal(calls.prompts.length, 5)
  assert.deepEqual(calls.prompts[0], { path: { id: "s" }, body: { parts: [{ type: "text", text: "keep going" }] } })
  const fs = await import("node:fs")
  const sent = fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  fs.unlinkSync(rec)
  assert.equal(sent[0].stop_hook_active, false)
  assert.equal(sent[1].stop_hook_active, true)
  assert.equal(sent[0].hookshim_bridge, bridgeID)
  assert.equal(sent[0].event.type, "session.idle")
  // a prompt of the user's own ends the streak
  await hooks["chat.message"]({ sessionID: "s" }, { message: {}, parts: [{ type: "text", text: "new task" }] })
  await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } })
  assert.equal(calls.prompts.length, 6)
}
// other bus events are not forwarded at all.
{
  const rec = `${process.env.TMPDIR || "/tmp"}/hs-oc-check2-${process.pid}.jsonl`
  const { hooks } = await load(`cat >> ${rec}`)
  await hooks.event({ event: { type: "message.part.updated", properties: {} } })
  const fs = await import("node:fs")
  assert.equal(fs.existsSync(rec), false)
}
// failures are no opinion; with HOOKSHIM_ON_ERROR=deny they block.
{
  for (const cmd of ["exit 3", "printf 'not json'", "/nonexistent/hookshim"]) {
    const open = await load(cmd)
    await open.hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: {} })
    const closed = await load(cmd, { failClosed: true })
    await assert.rejects(closed.hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: {} }), /fail-closed/)
  }
  const slow = await load("sleep 5", { timeout: "200" })
  const t0 = Date.now()
  await slow.hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: {} })
  assert.ok(Date.now() - t0 < 3000, "the timeout did not bound the call")
}
console.log("ok")
