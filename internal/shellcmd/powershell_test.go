package shellcmd

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoded is s as -EncodedCommand takes it: base64 of UTF-16LE.
func encoded(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestPowerShell reads PowerShell one-liners. Sources: the examples of
// Remove-Item, Move-Item, Copy-Item, Get-Content, Set-Content,
// Set-Location, Start-Process, Invoke-Expression and about_Pwsh in
// Microsoft's PowerShell reference (learn.microsoft.com/powershell); the
// install lines of Scoop (get.scoop.sh), Bun (bun.sh), uv (astral.sh)
// and Deno (deno.land); the patterns of a public Claude Code safety hook
// written in PowerShell (lebobo88/RLM-CLI-Starter,
// .claude/hooks/pre-tool-safety.ps1: Remove-Item -Recurse, del /s,
// rmdir /s, rd /s); and the forms PowerShell's language specification
// gives for quoting, escapes and the call operator.
func TestPowerShell(t *testing.T) {
	tests := []struct {
		line string
		want []cmd
	}{
		// Destructive, as policies written for rm -rf see them.
		{`Remove-Item -Recurse -Force C:\`, []cmd{{"rm|-r|-f|--|C:/", "", false}}},
		// An interpreter's code: its deletes, what it hands to cmd.exe.
		{`python -c "import shutil; shutil.rmtree('C:\\Users\\dev')"`, []cmd{{`python|-c|import shutil; shutil.rmtree('C:\\Users\\dev')`, "", false}, {"rm|-r|--|C:/Users/dev", "python -c", false}}},
		{`node -e "require('child_process').execSync('rd /s /q C:\\Windows')"`, []cmd{{`node|-e|require('child_process').execSync('rd /s /q C:\\Windows')`, "", false}, {"rm|-r|-f|--|C:/Windows", "node -e", false}}},
		// Variables the line sets to a string are read with it.
		{`$p = "C:\"; Remove-Item -Recurse -Force $p`, []cmd{{"rm|-r|-f|--|C:/", "", false}}},
		{`$P='C:\Users\dev'; rm -r -fo "${p}\Documents"`, []cmd{{"rm|-r|-f|--|C:/Users/dev/Documents", "", false}}},
		{`$c = 'rm'; & $c -r -fo C:\`, []cmd{{"rm|-r|-f|--|C:/", "", false}}},
		{`$x=Remove-Item -Recurse C:\`, []cmd{{"rm|-r|--|C:/", "", false}}},
		{`$p = "C:\"; $p = Get-Item x; Remove-Item -Recurse $p`, []cmd{{"get-item|x", "", false}, {"rm|-r|--|$p", "", false}}},
		{`rm -r -fo /`, []cmd{{"rm|-r|-f|--|/", "", false}}},
		{`rm -rf /`, []cmd{{"rm|-rf|/", "", false}}}, // /bin/rm in pwsh on Linux and macOS
		{`cp -a src C:\dst`, []cmd{{"cp|-a|src|C:/dst", "", false}}},
		{`ri -Rec -Fo ~\Documents`, []cmd{{"rm|-r|-f|--|~/Documents", "", false}}},
		{`del -r C:\Windows\System32`, []cmd{{"rm|-r|--|C:/Windows/System32", "", false}}},
		{`Remove-Item -Path $env:USERPROFILE\Documents -Recurse`, []cmd{{"rm|-r|--|$HOME/Documents", "", false}}},
		{`Remove-Item -LiteralPath 'C:\Program Files' -Recurse:$true`, []cmd{{"rm|-r|--|C:/Program Files", "", false}}},
		{`Remove-Item -Recurse:$false C:\x`, []cmd{{"rm|--|C:/x", "", false}}},
		{`Remove-Item -Recurse:$False C:\x`, []cmd{{"rm|--|C:/x", "", false}}},
		{`Remove-Item C:\a, 'C:\b,c' -Recurse`, []cmd{{"rm|-r|--|C:/a|C:/b,c", "", false}}},
		{"Remove-Item \u2013Recurse \u2013Force \u2018C:\\\u2019", []cmd{{"rm|-r|-f|--|C:/", "", false}}},
		{"Remove-Item -Re`curse -Force C:\\", []cmd{{"rm|-r|-f|--|C:/", "", false}}},
		{`Get-ChildItem * -Include *.csv -Recurse | Remove-Item`, []cmd{{"get-childitem|*|-Include|*.csv|-Recurse", "", false}, {"rm|--", "pipeline", false}}},
		{`Get-ChildItem C:\ | ForEach-Object { Remove-Item $_ -Recurse -Force }`, []cmd{{"get-childitem|C:\\", "", false},
			{"foreach-object|{ Remove-Item $_ -Recurse -Force }", "", false}, {"rm|-r|-f|--|$_", "foreach-object {},pipeline", false}}},
		{`cmd /c "rd /s /q C:\Windows"`, []cmd{{"cmd|/c|rd /s /q C:\\Windows", "", false}, {"rm|-r|-f|--|C:/Windows", "cmd /c", false}}},
		{`cmd.exe /c del /s /q %USERPROFILE%\*`, []cmd{{"cmd|/c|del|/s|/q|%USERPROFILE%\\*", "", false}, {"rm|-r|-f|--|$HOME/*", "cmd /c", false}}},
		{`powershell -NoProfile -Command "Remove-Item -Recurse -Force 'C:\Users\me\Documents'"`, []cmd{
			{"powershell|-NoProfile|-Command|Remove-Item -Recurse -Force 'C:\\Users\\me\\Documents'", "", false},
			{"rm|-r|-f|--|C:/Users/me/Documents", "powershell -c", false}}},
		{`pwsh -c rm -r -fo /`, []cmd{{"pwsh|-c|rm|-r|-fo|/", "", false}, {"rm|-r|-f|--|/", "powershell -c", false}}},
		{`powershell.exe -ExecutionPolicy Bypass -EncodedCommand ` + encoded(`Remove-Item -Recurse C:\`), []cmd{
			{"powershell|-ExecutionPolicy|Bypass|-EncodedCommand|" + encoded(`Remove-Item -Recurse C:\`), "", false},
			{"rm|-r|--|C:/", "powershell -EncodedCommand", false}}},
		{`iex 'rm -r -fo C:\'`, []cmd{{"iex|rm -r -fo C:\\", "", false}, {"rm|-r|-f|--|C:/", "iex", false}}},
		{`Invoke-Expression -Command "Remove-Item -Recurse -Force C:\"`, []cmd{{"invoke-expression|-Command|Remove-Item -Recurse -Force C:\\", "", false},
			{"rm|-r|-f|--|C:/", "iex", false}}},
		{`Start-Process powershell -ArgumentList '-c','Remove-Item -r -fo C:\' -Verb RunAs`, []cmd{
			{"start-process|powershell|-ArgumentList|-c,Remove-Item -r -fo C:\\|-Verb|RunAs", "", false},
			{"powershell|-c|Remove-Item|-r|-fo|C:\\", "Start-Process", true},
			{"rm|-r|-f|--|C:/", "Start-Process,powershell -c", true}}},
		{`& { Remove-Item -Recurse C:\x }`, []cmd{{"rm|-r|--|C:/x", "& {}", false}}},
		{`Set-Location C:\; Remove-Item -Recurse *`, []cmd{{"cd|--|C:/", "", false}, {"rm|-r|--|*", "", false}}},
		{`Move-Item C:\Users\me\Documents D:\old`, []cmd{{"mv|--|C:/Users/me/Documents|D:/old", "", false}}},
		{`Format-Volume -DriveLetter D`, []cmd{{"format-volume|-DriveLetter|D", "", false}}},
		{`git push --force origin main; git reset --hard`, []cmd{{"git|push|--force|origin|main", "", false}, {"git|reset|--hard", "", false}}},
		{`& 'C:\Program Files\Git\cmd\git.exe' push -f origin main`, []cmd{{"C:/Program Files/Git/cmd/git|push|-f|origin|main", "", false}}},
		{`GIT.EXE clean -fdx`, []cmd{{"git|clean|-fdx", "", false}}},
		{`Get-Content .env`, []cmd{{"cat|--|.env", "", false}}},
		{`type C:\Users\me\.ssh\id_rsa`, []cmd{{"cat|--|C:/Users/me/.ssh/id_rsa", "", false}}},
		{`Set-Content -Path ..\..\x.txt -Value 'hi'`, []cmd{{"tee|--|../../x.txt", "", false}}},
		{`"x" | Out-File -Append C:\Windows\x.log`, []cmd{{"tee|-a|--|C:/Windows/x.log", "", false}}},
		{`irm https://get.scoop.sh | iex`, []cmd{{"curl|--|https://get.scoop.sh", "", false}, {"iex", "", false}}},
		{`Invoke-WebRequest -Uri https://x.test/i.ps1 -OutFile i.ps1; .\i.ps1`, []cmd{{"curl|-o|i.ps1|--|https://x.test/i.ps1", "", false}, {"./i.ps1", "", false}}},
		{`gsudo Remove-Item -Recurse C:\x`, []cmd{{"rm|-r|--|C:/x", "gsudo", true}}},

		// Harmless, and quoted text is never a command.
		{`Get-ChildItem -Force`, []cmd{{"get-childitem|-Force", "", false}}},
		{`echo 'rm -r -fo C:\'`, []cmd{{"echo|rm -r -fo C:\\", "", false}}},
		{`Write-Output 'it''s'`, []cmd{{"write-output|it's", "", false}}},
		{"Write-Output \"a`\"b\" \"c\"\"d\"", []cmd{{"write-output|a\"b|c\"d", "", false}}},
		{`git commit -m "never Remove-Item -Recurse C:\"`, []cmd{{"git|commit|-m|never Remove-Item -Recurse C:\\", "", false}}},
		{"npm test && npm run build || Write-Host failed", []cmd{{"npm|test", "", false}, {"npm|run|build", "", false}, {"write-host|failed", "", false}}},
		{"Get-Process | Sort-Object CPU -Descending | Select-Object -First 5", []cmd{{"get-process", "", false}, {"sort-object|CPU|-Descending", "", false}, {"select-object|-First|5", "", false}}},
		{"dir # Remove-Item -Recurse C:\\", []cmd{{"dir", "", false}}},
		{"<# rm -r -fo / #> ls", []cmd{{"ls", "", false}}},
		{"Get-ChildItem `\n  -Force", []cmd{{"get-childitem|-Force", "", false}}},
		{`$env:NODE_ENV = 'test'; npm test`, []cmd{{"npm|test", "", false}}},
		{`$files = Get-ChildItem *.log`, []cmd{{"get-childitem|*.log", "", false}}},
		{`Remove-Item .\build -Recurse -Force`, []cmd{{"rm|-r|-f|--|./build", "", false}}},
		{`Remove-Item -Path C:\Test\hidden-RO-file.txt -Force`, []cmd{{"rm|-f|--|C:/Test/hidden-RO-file.txt", "", false}}},
		{`cd src; dotnet build`, []cmd{{"cd|--|src", "", false}, {"dotnet|build", "", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := PowerShellCommands(tt.line)
			if strings.Contains(tt.line, "| iex") {
				require.Error(t, err) // iex of its input is never read
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, summary(cs))
		})
	}
}

// TestPowerShellText: each command keeps its text as the line wrote it,
// so that a reason can quote what the agent wrote rather than the
// reading; a nested program's commands keep theirs as given to the
// program that runs them.
func TestPowerShellText(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`Remove-Item -Recurse -Force C:\`, []string{`Remove-Item -Recurse -Force C:\`}},
		{"  rm -r -fo C:\\Users\\dev  # gone\n", []string{`rm -r -fo C:\Users\dev`}},
		{`Set-Location C:\;Remove-Item -Recurse *  ;  git status`, []string{`Set-Location C:\`, `Remove-Item -Recurse *`, `git status`}},
		{`Get-ChildItem C:\ | Remove-Item -Recurse -Force > out.txt`, []string{`Get-ChildItem C:\`, `Remove-Item -Recurse -Force > out.txt`}},
		{`& 'C:\Program Files\Git\cmd\git.exe' push -f`, []string{`& 'C:\Program Files\Git\cmd\git.exe' push -f`}},
		{"Remove-Item `\n  -Recurse C:\\x", []string{"Remove-Item `\n  -Recurse C:\\x"}},
		{`cmd /c "rd /s /q C:\Windows & del /s C:\x"`, []string{`cmd /c "rd /s /q C:\Windows & del /s C:\x"`, `rd /s /q C:\Windows`, `del /s C:\x`}},
		{`powershell -Command "Remove-Item -Recurse -Force C:\"`, []string{`powershell -Command "Remove-Item -Recurse -Force C:\"`, `Remove-Item -Recurse -Force C:\`}},
		{`Get-ChildItem | ForEach-Object { Remove-Item $_ -Recurse }`, []string{`Get-ChildItem`, `ForEach-Object { Remove-Item $_ -Recurse }`, `Remove-Item $_ -Recurse`}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cs, err := PowerShellCommands(tt.line)
			require.NoError(t, err)
			var got []string
			for _, c := range cs {
				got = append(got, c.Text)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	cs, err := Commands("rm -rf /")
	require.NoError(t, err)
	assert.Empty(t, cs[0].Text, "a bash command's Args are its words")
}

// TestPowerShellUnreadable: what the reader cannot be sure of ends the
// reading with a ParseError, so that policies answer unsure.
func TestPowerShellUnreadable(t *testing.T) {
	for _, line := range []string{
		`iex $x`,
		`Invoke-Expression $cmd`,
		`$c = Get-Command rm; & $c -r -fo C:\`,
		`Write-Host "done: $(Remove-Item -Recurse C:\)"`,
		`Get-ChildItem (Join-Path $a b)`,
		`@(1,2) | ForEach-Object { $_ }`,
		`[IO.Directory]::Delete('C:\', $true)`,
		`if ($true) { Remove-Item -Recurse C:\ }`,
		`foreach ($d in 'C:\') { Remove-Item -Recurse $d }`,
		`function f { rm -r / }; f`,
		"@'\nrm -r /\n'@ | iex",
		`Remove-Item @args`,
		`Write-Output 'unclosed`,
		`Get-Content script.ps1 | iex`,
		`iwr https://x.test/a.ps1 | powershell -`,
		`powershell -EncodedCommand bm90IGJhc2U2NA`,
		`powershell -EncodedCommand $enc`,
		`cmd /c "if exist x (rd /s /q C:\)"`,
		`Start-Process $exe`,
		`sort < input.txt`,
		`$sb = { rm -r / }`,
		`Get-ChildItem }`,
		"Write-Host `",
		`powershell -c $prog`,
	} {
		t.Run(line, func(t *testing.T) {
			_, err := PowerShellCommands(line)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
		})
	}
}

// TestPowerShellNestedBudget: nested programs are bounded in depth.
func TestPowerShellNestedBudget(t *testing.T) {
	line := "rm x"
	for range maxDepth + 2 {
		line = "iex '" + strings.ReplaceAll(line, "'", "''") + "'"
	}
	_, err := PowerShellCommands(line)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "too deep")
}

// TestRead: the shell picks the reading.
func TestRead(t *testing.T) {
	cs, err := Read(PowerShell, `rm -r -fo C:\`)
	require.NoError(t, err)
	assert.Equal(t, []cmd{{"rm|-r|-f|--|C:/", "", false}}, summary(cs))
	cs, err = Read("", `rm -r -fo C:\\`)
	require.NoError(t, err)
	assert.Equal(t, []cmd{{`rm|-r|-fo|C:\`, "", false}}, summary(cs))
	var r Reader
	a, _ := r.Read(PowerShell, "ls; pwd", "")
	b, _ := r.Read("", "ls; pwd", "")
	assert.Len(t, a, 2)
	assert.Len(t, b, 2)
}

// TestPowerShellLinear: a long line costs in proportion to its length,
// nested blocks and programs included; the generous deadline only
// catches quadratic work.
func TestPowerShellLinear(t *testing.T) {
	for _, unit := range []string{"{ ", "iex '", "Remove-Item -Recurse C:\\x; ", "\"$x`\"\" ", "cmd /c "} {
		line := strings.Repeat(unit, 200_000/len(unit))
		done := make(chan struct{})
		go func() { _, _ = PowerShellCommands(line); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("reading %q×%d took over a minute", unit, 200_000/len(unit))
		}
	}
}

func FuzzPowerShell(f *testing.F) {
	for _, s := range []string{`Remove-Item -Recurse -Force C:\`, "rm -r -fo /; iex 'a'", `cmd /c "rd /s /q x" & b`,
		"Get-ChildItem | % { rm $_ -r }", `powershell -enc ` + encoded("rm -r /"), "Write-Output \"a`\"$x\" 'b''c'",
		"Start-Process pwsh -ArgumentList '-c','x' -Verb RunAs", "<# c #> a # d\nb `\n c", "$x = y 2>&1 > f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var cs []Command
		done := make(chan bool)
		go func() { cs, _ = PowerShellCommands(line); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("HANG %q", line)
		}
		for i, c := range cs {
			if len(c.Dynamic) != len(c.Args) || len(c.Unset) != len(c.Args) {
				t.Fatalf("command %d: %d args, %d dynamic, %d unset", i, len(c.Args), len(c.Dynamic), len(c.Unset))
			}
			if len(c.Args) == 0 {
				t.Fatalf("command %d has no words", i)
			}
			if c.Parent >= i {
				t.Fatalf("command %d: parent %d not before it", i, c.Parent)
			}
			if c.InArg >= 0 && (c.Parent < 0 || c.InArg >= len(cs[c.Parent].Args)) {
				t.Fatalf("command %d: in arg %d of parent %d", i, c.InArg, c.Parent)
			}
		}
	})
}
