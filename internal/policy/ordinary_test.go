package policy

import (
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ordinary are command lines agents run every day: no shell policy may
// answer anything for them, unsure included (writes to ~/.cache, which
// outside-project reports by design, are left out).
var ordinary = []string{
	"ls -la", "git status", "git diff --stat", "go test ./...", "npm test", "npm run build 2>&1 | tail -20",
	"cd src && go vet ./...", "make -j$(nproc)", "cargo build --release 2>&1 | tail", "pytest -x -q tests/",
	"git commit -m \"$(cat <<'EOF'\nfix: the thing\n\nlonger text; with rm -rf / in it\nEOF\n)\"",
	"gh pr create --title x --body \"$(cat <<'EOF'\n## Summary\n- a\nEOF\n)\"",
	"cat <<'EOF' > src/x.py\nimport os\nprint(os.getcwd())\nEOF",
	"python3 -c \"print('hello')\"", "awk '{print $1}' file.txt", "find . -name '*.go' | xargs grep -l TODO",
	"grep -rn \"TODO\" --include=\"*.ts\" .", "sed -i 's/a/b/g' src/x.go", "for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
	"while read -r line; do echo \"$line\"; done < input.txt", "[ -f x.example ] && cp x.example x.local",
	"test -d build || mkdir build", "export PATH=$PATH:$HOME/go/bin", "source .venv/bin/activate && pytest",
	". .venv/bin/activate", "python -m venv .venv", "pip install -r requirements.txt", "npm install", "npm ci",
	"rm -rf node_modules && npm install", "rm -rf build dist *.egg-info",
	"rm -rf \"$(mktemp -d)\"", "rm -rf \"${BUILD_DIR:?}/\"*", "rm -rf \"$TMPDIR/x\"", "rm -f \"$f\"",
	"mkdir -p /tmp/x && cp a /tmp/x/", "tar -xzf x.tgz -C /tmp", "git stash && git pull --rebase && git stash pop",
	"echo \"$((1+2))\"", "let x=1", "declare -A m=([a]=1)", "arr=(1 2 3); echo \"${arr[@]}\"", "echo ${var,,}",
	"for ((i=0;i<3;i++)); do echo $i; done", "case \"$1\" in start) echo s ;; *) echo u ;; esac",
	"printf '%s\\n' a b", "cat file | sh -c 'wc -l'", "bash scripts/test.sh", "sh -c \"cd sub && make\"",
	"env | grep PATH", "sudo apt-get install -y jq", "docker run --rm -v $(pwd):/app -w /app node:20 npm test",
	"curl -s http://localhost:3000/api | jq .", "curl -fsSL https://api.github.com/repos/x/y | python3 -m json.tool",
	"sleep 2 &", "kill %1", "echo $?", "cd \"$(git rev-parse --show-toplevel)\" && ls",
	"timeout 60 npm test", "nohup ./server > server.log 2>&1 &", "ps aux | grep node", "lsof -i :3000",
	"chmod +x scripts/build.sh && ./scripts/build.sh", "ln -sf ../config.yaml config.yaml",
	"git log --oneline -20 | cat", "git checkout -b feature/x", "git push -u origin feature/x",
	"eval \"$(ssh-agent -s)\"", "eval \"$(direnv hook bash)\"", "diff <(sort a) <(sort b)",
	"echo {1..5}", "ls src/**/*.go", "wc -l $(git ls-files '*.go')", "jq -r '.dependencies | keys[]' package.json",
	"node -e \"console.log(require('./package.json').version)\"", "go run ./cmd/x --flag=1",
	"[[ -n \"$CI\" ]] && echo ci", "if [ -z \"$X\" ]; then echo empty; fi", "xargs -n1 echo < list.txt",
	"find . -name '*.pyc' -delete", "find . -type d -name __pycache__ -exec rm -rf {} +",
	"trap 'rm -f \"$tmp\"' EXIT; tmp=$(mktemp); echo x > \"$tmp\"",
	"docker compose up -d", "kubectl get pods -n default",
	"cd .. && ls", "cd ~ && ls", "echo 'rm -rf /' > notes.txt", "watch -n 1 'ls -la'",
}

func TestOrdinary(t *testing.T) {
	for _, s := range pack() {
		if !readsShell(s.Info) {
			continue
		}
		p, err := Compile(s.Name, nil)
		require.NoError(t, err)
		for _, line := range ordinary {
			out := p.Eval(eventFor(Example{Tool: event.ToolShell, Text: line}, nil))
			assert.True(t, out.Empty(), "%s on %q: %v %s", s.Name, line, out.Decision, out.Reason)
		}
	}
}
