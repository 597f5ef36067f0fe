package provider

// copilotShell is the command key Copilot runs on this system. A constant
// per platform, so that the entry template is data, not start-up code.
const copilotShell = "powershell"
