package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// client is one AI coding tool under test, driven headless against the
// mock model with no account. How each is driven was measured on the
// versions pinned in versions.json.
type client struct {
	name     string // key in versions.json
	provider string // hookshim's provider id
	scope    string // where `hookshim install` registers it: project or user
	timeout  time.Duration

	// configure writes the client's own settings into the run's HOME and
	// project: model wiring, trust, telemetry and updates off; nil when
	// the environment is all it needs. Never hooks: those are hookshim
	// install's.
	configure func(r *runDir) error
	// env is the client's variables (model endpoint, dummy keys, switches).
	env func(r *runDir) []string
	// args is the headless command line.
	args []string

	// askBlocks: what the client does headless with an "ask" that hookshim
	// passes through (only where the provider says the event can ask).
	askBlocks bool
	// denyEndsRun: the client cannot block one call and go on; a denial
	// ends the whole run, and its reason reaches no later model request
	// (Cline's cancel). A blocked call is then checked by what is left:
	// the call did not run, the model was not called again, and
	// hookshim's log holds the reason.
	denyEndsRun bool
	// textDelay holds back the mock model's text answers.
	textDelay time.Duration
	// extra names the optional scenarios the client runs besides the
	// shared ones: the corners of its own protocol.
	extra []string
	// fires are native events every run of the client sends (the no-policy
	// scenario checks them).
	fires []string
	// silent are canonical events the client never sends headless, so the
	// allow scenario cannot put context on them (droid exec sends no
	// UserPromptSubmit).
	silent []string
	// lossy are canonical events whose context the client drops now and
	// then for reasons of its own, though it carries it in most runs: the
	// allow scenario logs a miss there instead of failing on it.
	lossy []string
	// expect adds the client's own checks to a scenario's, by name.
	expect map[string]func(t *testing.T, res *result)
}

// jsonFile renders v as an indented JSON file.
func jsonFile(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

type obj = map[string]any

// clients are the tools under test, in name order: adding one to e2e is
// an entry here and its pin in versions.json.
var clients = []*client{
	// Auggie: `auggie --print` with no account, against the mock as
	// Augment's backend (mockmodel's augment.go): AUGMENT_SESSION_AUTH names
	// it as the tenant, and its get-models answer turns on the enable_hooks
	// feature flag, without which Auggie runs no hook (measured with
	// 0.36.0). It downloads ripgrep from GitHub at start unless
	// ~/.augment/binaries holds it: a stand-in that finds nothing keeps it
	// on loopback (the mock never asks for a search).
	{
		name:     "auggie",
		provider: "auggie",
		scope:    "project",
		timeout:  2 * time.Minute,
		configure: func(r *runDir) error {
			rg := filepath.Join(r.home, ".augment", "binaries", "ripgrep", "v14.1.1-linux-x64", "rg")
			if err := r.write(rg, "#!/bin/sh\nexit 1\n"); err != nil {
				return err
			}
			return os.Chmod(rg, 0o755)
		},
		env: func(r *runDir) []string {
			return []string{"AUGMENT_SESSION_AUTH=" + jsonFile(obj{
				"accessToken": "e2e-dummy-token",
				"tenantURL":   r.mock.URL + "/",
				"scopes":      []string{"read", "write"},
			})}
		},
		args:  []string{"--print", prompt, "--workspace-root", "."},
		fires: []string{"SessionStart", "PromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"},
		extra: []string{"no-policy"},
		expect: map[string]func(t *testing.T, res *result){
			// A deny's reason is the failed tool result the model reads.
			"deny": func(t *testing.T, res *result) {
				if got := auggieToolResult(res); !strings.Contains(got, tokDeny) {
					t.Errorf("the model did not get the reason as the tool result (got %q)", got)
				}
			},
			// Context after a tool is appended to its result.
			"allow": func(t *testing.T, res *result) {
				if got := auggieToolResult(res); !strings.Contains(got, ctxToken("after_tool_execute")) {
					t.Errorf("after-tool context not in the tool result (got %q)", got)
				}
			},
		},
	},
	// Cline CLI: `cline --json -P openai-compatible "<prompt>"` (act mode,
	// tools auto-approved) with the mock as its openai-compatible provider
	// in ~/.cline/data/settings/providers.json, as `cline auth -p
	// openai-compatible -k … -b …` writes it; no Cline account. Measured
	// with 3.0.65, it stays on loopback only with: telemetry opted out in
	// global-settings.json (else OpenTelemetry to otel.cline.bot), the
	// update check off (CLINE_NO_AUTO_UPDATE), E2E_TEST=true (the only
	// switch that skips the feature-flag poll of data.cline.bot), and the
	// local session backend (CLINE_SESSION_BACKEND_MODE=local; by default
	// it starts a detached `--cline-hub-daemon` that outlives the run).
	// Only tool_call and tool_result are awaited; a cancel (hookshim's
	// deny) aborts the run.
	{
		name:     "cline",
		provider: "cline",
		scope:    "project",
		timeout:  2 * time.Minute,
		configure: func(r *runDir) error {
			settings := filepath.Join(r.home, ".cline", "data", "settings")
			if err := r.write(filepath.Join(settings, "global-settings.json"), jsonFile(obj{
				"telemetryOptOut":   true,
				"autoUpdateEnabled": false,
			})); err != nil {
				return err
			}
			// Without the modes and updatedAt that `cline auth` writes,
			// the file is ignored, silently (3.0.65).
			return r.write(filepath.Join(settings, "providers.json"), jsonFile(obj{
				"version":          1,
				"lastUsedProvider": "openai-compatible",
				"modes":            obj{},
				"providers": obj{"openai-compatible": obj{
					"settings": obj{
						"provider": "openai-compatible",
						"apiKey":   "e2e-dummy-key",
						"model":    "mock-model",
						"baseUrl":  r.mock.URL + "/v1",
					},
					"updatedAt":   "2026-01-01T00:00:00.000Z",
					"tokenSource": "manual",
				}},
			}))
		},
		env: func(r *runDir) []string {
			return []string{
				"CLINE_SESSION_BACKEND_MODE=local",
				"CLINE_NO_AUTO_UPDATE=1",
				"E2E_TEST=true",
			}
		},
		args:        []string{"--json", "-P", "openai-compatible", "-m", "mock-model", prompt},
		denyEndsRun: true,
		// `cline "<prompt>"` sends no prompt_submit for the prompt it
		// starts with (3.0.65).
		silent: []string{"before_prompt"},
		extra:  []string{"no-policy"},
		fires:  []string{"agent_start", "tool_call", "tool_result", "agent_end"},
		expect: map[string]func(t *testing.T, res *result){
			// The cancel is what stopped the call: the run ends aborted.
			"deny": clineAborted(tokDeny),
			"ask":  clineAborted(tokAsk),
		},
	},
	// Claude Code: `claude -p` with stream-json; Bash allowed in the project's
	// settings.local.json (hookshim install owns settings.json), workspace
	// trust accepted in ~/.claude.json.
	{
		name:     "claude",
		provider: "claude-code",
		scope:    "project",
		timeout:  2 * time.Minute,
		configure: func(r *runDir) error {
			if err := r.write(filepath.Join(r.home, ".claude.json"), jsonFile(obj{
				"hasCompletedOnboarding": true,
				"projects":               obj{r.proj: obj{"hasTrustDialogAccepted": true}},
			})); err != nil {
				return err
			}
			return r.write(filepath.Join(r.proj, ".claude", "settings.local.json"), jsonFile(obj{
				"permissions": obj{"allow": []string{"Bash"}},
			}))
		},
		env: func(r *runDir) []string {
			return []string{
				"ANTHROPIC_BASE_URL=" + r.mock.URL,
				"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"DISABLE_TELEMETRY=1",
				"DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1",
			}
		},
		args: []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--max-turns", "5"},
		// Measured with 2.1.330: -p answers an ask as a denial, the reason to the model.
		askBlocks: true,
	},
	// CodeBuddy Code: the CLI bundled in @tencent-ai/agent-sdk, `codebuddy -p`
	// with -y (permissions bypassed) and an OpenAI-compatible endpoint
	// named by CODEBUDDY_BASE_URL; with CODEBUDDY_API_KEY no login is asked.
	{
		name:     "codebuddy",
		provider: "codebuddy",
		scope:    "project",
		timeout:  2 * time.Minute,
		env: func(r *runDir) []string {
			return []string{
				"CODEBUDDY_BASE_URL=" + r.mock.URL + "/v1",
				"CODEBUDDY_API_KEY=e2e-dummy-key",
				// Else it clones its plugin marketplace from cnb.cool.
				"CODEBUDDY_SKIP_BUILTIN_MARKETPLACE=1",
				"DISABLE_TELEMETRY=1",
				"DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1",
			}
		},
		args: []string{"-p", prompt, "--model", "mock-model", "-y"},
		// Measured with 2.117.0 (-p): Setup and Notification come first,
		// SessionStart after UserPromptSubmit, no SessionEnd.
		fires: []string{"UserPromptSubmit", "SessionStart", "PreToolUse", "PostToolUse", "Stop"},
		// Measured with 2.117.0: decision "block" drops the prompt.
		extra: []string{"prompt-deny", "prompt-allow", "no-policy"},
		// SessionStart's context reached the model in 10 of 13 runs of
		// 2.117.0 on a busy machine. In the 3 others hookshim's answer
		// carried it, yet CodeBuddy's log lacks "SessionStart hook provided
		// additional context", and in each SessionStart's hooks had ended
		// before the run's TraceStartHook, which no passing run showed.
		lossy: []string{"session_start"},
	},
	// Codex: `codex exec` against a custom provider speaking the Responses API;
	// the project trusted in CODEX_HOME/config.toml and hook review bypassed
	// (new hooks otherwise do not run until reviewed, silently); every
	// plugin, app and update sync off so it stays on loopback.
	{
		name:     "codex",
		provider: "codex",
		scope:    "project",
		timeout:  2 * time.Minute,
		configure: func(r *runDir) error {
			toml := fmt.Sprintf(`model = "mock-model"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = %q
wire_api = "responses"
env_key = "E2E_MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"

[features]
plugins = false
remote_plugin = false
apps = false
plugin_sharing = false
in_app_updates = false

[analytics]
enabled = false
`, r.mock.URL+"/v1", r.proj)
			return r.write(filepath.Join(r.home, ".codex", "config.toml"), toml)
		},
		env: func(r *runDir) []string {
			return []string{
				"CODEX_HOME=" + filepath.Join(r.home, ".codex"),
				"E2E_MOCK_API_KEY=e2e-dummy-key",
			}
		},
		args:  []string{"exec", "--json", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", prompt},
		extra: []string{"dialect-deny"},
	},
	// Copilot CLI: `copilot -p` with its own-provider (BYOK) variables and
	// COPILOT_OFFLINE: no GitHub login.
	{
		name:     "copilot",
		provider: "copilot-cli",
		scope:    "project",
		timeout:  3 * time.Minute,
		env: func(r *runDir) []string {
			return []string{
				"COPILOT_OFFLINE=true",
				"COPILOT_PROVIDER_BASE_URL=" + r.mock.URL + "/v1",
				"COPILOT_PROVIDER_API_KEY=e2e-dummy-key",
				"COPILOT_MODEL=mock-model",
				"COPILOT_AUTO_UPDATE=false",
			}
		},
		args:      []string{"-p", prompt, "--allow-all-tools", "--trust-folder", "--no-auto-update", "--no-ask-user", "--output-format", "json"},
		askBlocks: true,
	},
	// Gemini CLI: `gemini -p` in yolo mode against GOOGLE_GEMINI_BASE_URL; the
	// project folder trusted (project hooks load only in a trusted folder).
	{
		name:     "gemini",
		provider: "gemini-cli",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			if err := r.write(filepath.Join(r.home, ".gemini", "settings.json"), jsonFile(obj{
				"general":   obj{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
				"privacy":   obj{"usageStatisticsEnabled": false},
				"telemetry": obj{"enabled": false},
				"security":  obj{"auth": obj{"selectedType": "gemini-api-key"}},
			})); err != nil {
				return err
			}
			return r.write(filepath.Join(r.home, ".gemini", "trustedFolders.json"), jsonFile(obj{r.proj: "TRUST_FOLDER"}))
		},
		env: func(r *runDir) []string {
			return []string{
				"GOOGLE_GEMINI_BASE_URL=" + r.mock.URL,
				"GEMINI_API_KEY=e2e-dummy-key",
				"GEMINI_CLI_NO_RELAUNCH=true",
			}
		},
		args:  []string{"-p", prompt, "-m", "gemini-2.5-flash", "--approval-mode", "yolo", "--output-format", "stream-json"},
		extra: []string{"dialect-deny"},
	},
	// Kimi Code: `kimi -p` (which never asks: its permission mode is forced to
	// auto) on Node >= 22.19, the model from KIMI_MODEL_* variables, hooks in
	// KIMI_CODE_HOME/config.toml (it has no project hook file). Its
	// PostToolUse hook is killed as soon as the model's next step ends
	// (measured with 2.1.0), so the mock holds its text answers back two
	// seconds to let hookshim's after-tool call finish and be seen, on a busy
	// machine too.
	{
		name:      "kimi",
		provider:  "kimi-code",
		scope:     "user",
		timeout:   3 * time.Minute,
		textDelay: 2 * time.Second,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.home, ".kimi-code", "config.toml"), "telemetry = false\n")
		},
		env: func(r *runDir) []string {
			return []string{
				"KIMI_CODE_HOME=" + filepath.Join(r.home, ".kimi-code"),
				"KIMI_MODEL_NAME=mock-model",
				"KIMI_MODEL_API_KEY=e2e-dummy-key",
				"KIMI_MODEL_PROVIDER_TYPE=openai",
				"KIMI_MODEL_BASE_URL=" + r.mock.URL + "/v1",
				"KIMI_DISABLE_TELEMETRY=1",
				"KIMI_CODE_NO_AUTO_UPDATE=1",
				"KIMI_CODE_MODEL_CATALOG_REFRESH_ON_START=0",
			}
		},
		args:  []string{"-p", prompt, "--output-format", "stream-json"},
		extra: []string{"prompt-deny", "prompt-allow", "stop-deny", "no-policy"},
		fires: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"},
		expect: map[string]func(t *testing.T, res *result){
			// A deny is exit 2 with the reason on stderr: the call fails,
			// and PostToolUseFailure carries the reason.
			"deny": func(t *testing.T, res *result) {
				for _, p := range res.payloads {
					if p.Native == "PostToolUseFailure" && strings.Contains(gjson.GetBytes(p.Raw, "error.message").Str, tokDeny) {
						return
					}
				}
				t.Errorf("no PostToolUseFailure carrying the reason")
			},
			// `kimi -p` prints the blocked prompt's reason.
			"prompt-deny": func(t *testing.T, res *result) {
				if !strings.Contains(res.stdout, tokDeny) {
					t.Errorf("the reason is not in Kimi Code's output")
				}
			},
			// An answer that says nothing injects nothing (Kimi Code wraps
			// what a hook prints in <hook_result>).
			"prompt-allow": kimiNothingInjected,
			"no-policy": func(t *testing.T, res *result) {
				kimiNothingInjected(t, res)
				for _, p := range res.payloads {
					if gjson.GetBytes(p.Raw, "client_type").Str != "kimi_code_cli" {
						t.Errorf("payload without client_type kimi_code_cli: %s", p.Raw)
					}
				}
			},
		},
	},
	// OpenCode: `opencode run` with a project opencode.json naming the mock as
	// an OpenAI-compatible provider. OpenCode has no command hooks: hookshim
	// install writes its bridge plugin into .opencode/plugins/. Updates, model
	// catalog fetches, sharing, LSP downloads and the startup npm install of
	// plugin dependencies are off.
	{
		name:     "opencode",
		provider: "opencode",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.proj, "opencode.json"), bridgeConfig(r, obj{"$schema": "https://opencode.ai/config.json"}))
		},
		env: func(r *runDir) []string {
			return []string{
				"OPENCODE_DISABLE_AUTOUPDATE=1",
				"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
				"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
				"OPENCODE_DISABLE_MODELS_FETCH=1",
				"OPENCODE_DISABLE_SHARE=1",
				"OPENCODE_DISABLE_CLAUDE_CODE=1",
				"OPENCODE_DISABLE_TERMINAL_TITLE=1",
			}
		},
		args:  []string{"run", "--format", "json", "--print-logs", "-m", "mock/mock-model", prompt},
		extra: []string{"prompt-deny", "no-policy"},
		fires: []string{"session.created", "chat.message", "tool.execute.before", "tool.execute.after",
			"experimental.chat.system.transform", "session.idle"},
		expect: bridgeExpect("OpenCode", "opencode-plugin"),
	},
	// Letta Code: `letta --backend local -p` (no Letta server) on Node >=
	// 22.19, with the mock as its openai-compatible provider in
	// ~/.letta/lc-local-backend/providers/auth.json, as `letta --backend
	// local connect openai-compatible --base-url …` writes it; it takes the
	// model the mock lists. The package is installed bare: two of its
	// declared dependencies are not in the registry, and the published
	// bundle runs with ws, ajv, ajv-formats and node-pty beside it. In -p
	// only PreToolUse and PostToolUse fire (measured with 0.32.18).
	{
		name:     "letta",
		provider: "letta-code",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.home, ".letta", "lc-local-backend", "providers", "auth.json"), jsonFile(obj{
				"version": 1,
				"providers": obj{"openai-compatible": obj{
					"id":                "local-provider-openai-compatible",
					"name":              "openai-compatible",
					"provider_type":     "openai-compatible",
					"provider_category": "byok",
					"auth":              obj{"type": "api", "key": "e2e-dummy-key"},
					"base_url":          r.mock.URL + "/v1",
					"created_at":        "2026-01-01T00:00:00.000Z",
					"updated_at":        "2026-01-01T00:00:00.000Z",
				}},
			}))
		},
		env: func(r *runDir) []string {
			// Else it asks the npm registry for a newer version at
			// start (0.32.18), and keeps a debug log of every session.
			return []string{"DISABLE_AUTOUPDATER=1", "LETTA_CODE_TELEM=0"}
		},
		args:   []string{"--backend", "local", "-p", prompt},
		silent: []string{"session_start", "before_prompt"},
		extra:  []string{"no-policy"},
		fires:  []string{"PreToolUse", "PostToolUse"},
	},
	// Pi: `pi -p` with the mock as a provider of type openai-completions in
	// ~/.pi/agent/models.json. Pi has no command hooks: hookshim install
	// writes its bridge extension into .pi/extensions/. PI_OFFLINE turns off
	// every startup network call (update and package checks, the install
	// ping). In -p Pi has no UI, so the bridge answers an ask with a block.
	{
		name:     "pi",
		provider: "pi",
		scope:    "project",
		timeout:  2 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.home, ".pi", "agent", "models.json"), jsonFile(obj{
				"providers": obj{"mock": obj{
					"baseUrl": r.mock.URL + "/v1",
					"api":     "openai-completions",
					"apiKey":  "e2e-dummy-key",
					"compat":  obj{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
					"models":  []obj{{"id": "mock-model"}},
				}},
			}))
		},
		env: func(r *runDir) []string {
			return []string{"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1"}
		},
		args:      []string{"-p", prompt, "--provider", "mock", "--model", "mock-model"},
		askBlocks: true,
		extra:     []string{"prompt-deny", "no-policy"},
		fires:     []string{"session_start", "input", "tool_call", "tool_result", "agent_end", "session_shutdown"},
		expect: map[string]func(t *testing.T, res *result){
			// A block's reason is the tool result the model reads.
			"deny": func(t *testing.T, res *result) {
				if got := res.toolResult(); !strings.Contains(got, tokDeny) {
					t.Errorf("the model did not get the reason as the tool result (got %q)", got)
				}
			},
			// Context after a tool is added to its result.
			"allow": func(t *testing.T, res *result) {
				if got := res.toolResult(); !strings.Contains(got, ctxToken("after_tool_execute")) {
					t.Errorf("after-tool context not in the tool result (got %q)", got)
				}
			},
			// A blocked prompt: the bridge tells the user on stderr.
			"prompt-deny": func(t *testing.T, res *result) {
				if !strings.Contains(res.stderr, tokDeny) {
					t.Errorf("the reason is not in Pi's output")
				}
			},
		},
	},
	// Factory Droid: `droid exec --auto high` with a BYOK custom model (an
	// OpenAI-compatible customModels entry in ~/.factory/settings.json,
	// selected as custom:<displayName>-<index>) and no Factory account.
	// FACTORY_AIRGAP_ENABLED keeps it off Factory's servers. The package is
	// the platform binary: @factory/cli is a launcher that fetches it.
	{
		name:     "droid",
		provider: "factory-droid",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.home, ".factory", "settings.json"), jsonFile(obj{
				"customModels": []obj{{
					"model":           "mock-model",
					"displayName":     "Mock",
					"baseUrl":         r.mock.URL + "/v1",
					"apiKey":          "e2e-dummy-key",
					"provider":        "generic-chat-completion-api",
					"maxOutputTokens": 4096,
				}},
			}))
		},
		env: func(r *runDir) []string {
			return []string{"FACTORY_AIRGAP_ENABLED=1"}
		},
		args:   []string{"exec", "--auto", "high", "-m", "custom:Mock-0", "-o", "json", prompt},
		silent: []string{"before_prompt"},
	},
	// Kilo Code CLI: `kilo run`, OpenCode's fork, with a project kilo.json
	// naming the mock as an OpenAI-compatible provider. No command hooks:
	// hookshim install writes the bridge plugin, under Kilo's name, into
	// .kilo/plugins/. Updates, model catalog fetches, sharing, LSP downloads,
	// default plugins, session upload and telemetry are off.
	{
		name:     "kilo",
		provider: "kilo",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.proj, "kilo.json"), bridgeConfig(r, obj{
				"$schema": "https://app.kilo.ai/config.json",
				// Kilo's own gateway provider fetches its model list.
				"enabled_providers": []string{"mock"},
			}))
		},
		env: func(r *runDir) []string {
			return []string{
				"KILO_DISABLE_AUTOUPDATE=1",
				"KILO_DISABLE_LSP_DOWNLOAD=1",
				"KILO_DISABLE_DEFAULT_PLUGINS=1",
				"KILO_DISABLE_MODELS_FETCH=1",
				"KILO_DISABLE_SHARE=1",
				"KILO_DISABLE_CLAUDE_CODE=1",
				"KILO_DISABLE_TERMINAL_TITLE=1",
				"KILO_DISABLE_SESSION_INGEST=1",
				"KILO_DISABLE_CODEBASE_INDEXING=1",
				"KILO_TELEMETRY_LEVEL=off",
			}
		},
		args:  []string{"run", "--format", "json", "--print-logs", "-m", "mock/mock-model", prompt},
		extra: []string{"prompt-deny", "no-policy"},
		fires: []string{"session.created", "chat.message", "tool.execute.before", "tool.execute.after",
			"experimental.chat.system.transform", "session.idle"},
		expect: bridgeExpect("Kilo", "kilo-plugin"),
	},
	// Qwen Code: `qwen -p` in yolo mode with the OpenAI-compatible auth.
	{
		name:     "qwen",
		provider: "qwen-code",
		scope:    "project",
		timeout:  3 * time.Minute,
		configure: func(r *runDir) error {
			return r.write(filepath.Join(r.home, ".qwen", "settings.json"), jsonFile(obj{
				"general":   obj{"disableAutoUpdate": true, "disableUpdateNag": true},
				"privacy":   obj{"usageStatisticsEnabled": false},
				"telemetry": obj{"enabled": false},
			}))
		},
		env: func(r *runDir) []string {
			return []string{
				"OPENAI_BASE_URL=" + r.mock.URL + "/v1",
				"OPENAI_API_KEY=e2e-dummy-key",
				"OPENAI_MODEL=mock-model",
			}
		},
		args: []string{"-p", prompt, "--auth-type", "openai", "-m", "mock-model", "--approval-mode", "yolo", "--output-format", "stream-json"},
		// Measured with 0.24.4: headless falls back to deny, reason to the model.
		askBlocks: true,
	},
}

// auggieToolResult is the content of the first tool result Auggie sent
// its backend (a request node with tool_result_node), or "".
func auggieToolResult(res *result) string {
	for _, q := range res.requests {
		for _, n := range gjson.GetBytes(q.Body, "nodes").Array() {
			if c := n.Get("tool_result_node.content"); c.Exists() {
				return c.String()
			}
		}
	}
	return ""
}

// clineAborted: Cline ended the run on hookshim's cancel, and the reason
// is nowhere in its output (docs/providers.md says it reaches no one).
func clineAborted(reason string) func(t *testing.T, res *result) {
	return func(t *testing.T, res *result) {
		if !strings.Contains(res.stdout, `"finishReason":"aborted"`) {
			t.Errorf("Cline did not end the run aborted")
		}
		if strings.Contains(res.stdout+res.stderr, reason) {
			t.Errorf("the cancel's reason is in Cline's output: docs/providers.md says it reaches no one")
		}
	}
}

// kimiNothingInjected: no hook output reached Kimi Code's conversation.
func kimiNothingInjected(t *testing.T, res *result) {
	if res.reached("<hook_result", 0) {
		t.Errorf("hookshim's answer was injected into the conversation")
	}
}

// registerHooks puts hookshim into the client's native config with
// `hookshim install`, as a user would: what install writes is what the
// client is tested with.
func registerHooks(r *runDir) (string, error) {
	p := provider.Lookup(r.c.provider)
	switch {
	case p == nil:
		return "", fmt.Errorf("hookshim has no provider %q", r.c.provider)
	case !installCmd:
		return "", fmt.Errorf("this hookshim has no install command")
	case p.Install == nil:
		return "", fmt.Errorf("hookshim install cannot register %s", p.ID)
	}
	return r.hookshim("install", "--provider", p.ID, "--scope", r.c.scope, "--dir", r.proj)
}

// bridgeConfig is the config of a tool that runs OpenCode's plugin API
// (OpenCode, Kilo): the loopback mock as its one model, no updates, no
// sharing, shell and edits allowed; own holds the tool's own keys.
func bridgeConfig(r *runDir, own obj) string {
	cfg := obj{
		"provider": obj{"mock": obj{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Mock",
			"options": obj{"baseURL": r.mock.URL + "/v1", "apiKey": "e2e-dummy-key"},
			"models":  obj{"mock-model": obj{"name": "Mock Model", "tool_call": true}},
		}},
		"model":       "mock/mock-model",
		"small_model": "mock/mock-model",
		"autoupdate":  false,
		"share":       "disabled",
		"permission":  obj{"bash": "allow", "edit": "allow"},
	}
	for k, v := range own {
		cfg[k] = v
	}
	return jsonFile(cfg)
}

// bridgeExpect is what a tool running hookshim's bridge plugin (named
// bridgeID in its payloads) must show beyond the shared checks.
func bridgeExpect(tool, bridgeID string) map[string]func(t *testing.T, res *result) {
	return map[string]func(t *testing.T, res *result){
		// A deny is a throw in tool.execute.before: its message is the
		// tool result the model reads. The bridge forwards the call
		// once, as the tool sent it.
		"deny": func(t *testing.T, res *result) {
			if got := res.toolResult(); !strings.Contains(got, tokDeny) {
				t.Errorf("the model did not get the reason as the tool result (got %q)", got)
			}
			before := 0
			for _, p := range res.payloads {
				raw := gjson.ParseBytes(p.Raw)
				if p.Native == "tool.execute.before" {
					before++
					if raw.Get("input.tool").Str != "bash" || raw.Get("output.args.command").Str != "touch marker.txt" {
						t.Errorf("unexpected tool.execute.before payload: %s", p.Raw)
					}
				}
				if raw.Get("hookshim_bridge").Str != bridgeID || raw.Get("bridge_version").Int() != 1 {
					t.Errorf("payload without %s's bridge markers: %s", tool, p.Raw)
				}
			}
			if before != 1 {
				t.Errorf("tool.execute.before forwarded %d times, want 1", before)
			}
		},
		// Context after a tool is appended to its result.
		"allow": func(t *testing.T, res *result) {
			if got := res.toolResult(); !strings.Contains(got, ctxToken("after_tool_execute")) {
				t.Errorf("after-tool context not in the tool result (got %q)", got)
			}
		},
		// A throw in chat.message: `run` reports only "Unexpected server
		// error"; the reason is in the tool's log.
		"prompt-deny": func(t *testing.T, res *result) {
			if !strings.Contains(res.stderr, tokDeny) {
				t.Errorf("the reason is not in %s's log", tool)
			}
		},
	}
}
