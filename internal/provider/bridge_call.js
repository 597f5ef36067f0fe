class BridgeError extends Error {}

// call runs hookshim once and returns its ops. Errors are BridgeErrors.
function call(payload, cwd) {
  return new Promise((resolve, reject) => {
    let body
    try {
      body = JSON.stringify(payload)
    } catch (e) {
      reject(new BridgeError("payload is not serialisable: " + e.message))
      return
    }
    let child
    try {
      child = spawn(COMMAND, {
        shell: true,
        cwd: cwd || undefined,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
      })
    } catch (e) {
      reject(new BridgeError("cannot run hookshim: " + e.message))
      return
    }
    let out = ""
    let err = ""
    let done = false
    const finish = (fn) => {
      if (done) return
      done = true
      clearTimeout(timer)
      fn()
    }
    const timer = setTimeout(() => {
      try {
        if (process.platform !== "win32") process.kill(-child.pid, "SIGKILL")
        else child.kill("SIGKILL")
      } catch {}
      finish(() => reject(new BridgeError("hookshim timed out after " + TIMEOUT_MS + " ms")))
    }, TIMEOUT_MS)
    child.on("error", (e) => finish(() => reject(new BridgeError("cannot run hookshim: " + e.message))))
    child.stdout.on("data", (d) => {
      if (out.length < MAX_OUTPUT) out += d
    })
    child.stderr.on("data", (d) => {
      if (err.length < 65536) err += d
    })
    child.on("close", (code) =>
      finish(() => {
        if (code !== 0) {
          reject(new BridgeError("hookshim exited " + code + (err ? ": " + err.trim() : "")))
          return
        }
        const text = out.trim()
        if (text === "") {
          resolve([])
          return
        }
        try {
          const answer = JSON.parse(text)
          resolve(Array.isArray(answer && answer.ops) ? answer.ops : [])
        } catch {
          reject(new BridgeError("hookshim answered something that is not JSON"))
        }
      }),
    )
    child.stdin.on("error", () => {})
    child.stdin.end(body)
  })
}
