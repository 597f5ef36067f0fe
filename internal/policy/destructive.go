package policy

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

var destructiveShell = &spec{
	Info: Info{
		Name:    "hookshim/destructive-shell",
		Summary: "deny shell commands that destroy the machine or the user's data outside the project",
		Events:  toolEvents,
		Catches: "recursive deletes (`rm -r`, long options abbreviated too: `rm --rec`; `find -delete`, `find -exec rm`/`-execdir`/`unlink`), " +
			"`find -delete` and `find -exec rm` (also through a shell: `find / -exec sh -c 'rm -rf \"$1\"' _ {} \\;`) anywhere outside the project but the temp folders and the home folder's caches (`find ~/Downloads -name '*.tmp' -delete`), " +
			"recursive `chmod`/`chown`/`chgrp` and `mv` of `/`, `/*`, the home folder (`~`, `$HOME`, `~/*`, a folder right in it such as `~/Documents`), " +
			"system folders and the folders right in them (`/etc`, `/usr`, `/usr/lib`, `/var`, `/boot`, `/lib`, `/home`, `/Users`, …), " +
			"a folder that holds the project (`rm -rf ..`), and globs or brace expansions that reach any of them (`/*/*`, `/u*`, `/usr/l*`, `/{usr,etc}`), " +
			"also when the path is reached with `..`, after `cd` (as the shell scopes it: not after `(cd /tmp)`), with `env -C` or `sudo -D`; " +
			"with the agent started in the home folder, `rm -rf *` there (the project folder is spared only when it is not the home folder, the root or a system folder); " +
			"`rm --no-preserve-root`; writes to block devices (`dd of=/dev/sda`, `> /dev/nvme0n1`, `shred`, `wipefs`, partitioning tools); " +
			"`mkfs`, `mke2fs`, `newfs`, `diskutil eraseDisk`; shell fork bombs. The line is parsed as bash parses it: lists, pipelines, " +
			"subshells, blocks, function bodies, `if`/`case`/loops, `$(…)`, backticks, `$(( ))`, `<(…)`, `coproc`, `trap '…'`, `eval`, " +
			"`$'\\x72\\x6d'` and `{rm,-rf,/}` as command names, and the wrappers `sudo`, `doas`, `pkexec`, `run0`, `su -c`, `env`, `nice`, `timeout`, `xargs`, " +
			"`parallel`, `busybox`, `watch`, `flock`, `find -exec`, `systemd-run`, `strace`, `unshare`, `screen`, `tmux new`, `at`, " +
			"`ssh localhost` and others; `$PWD`, `~+` and `$(pwd)` as the folder the command runs in, and what the line makes of it (`${PWD%/*}`, `$(dirname \"$PWD\")`: the folder above); programs given to a shell (`bash -c '…'`) or fed to one " +
			"(`echo '…' | sh`, `bash <<EOF`, `bash <<< '…'`) are read too, and so are `chroot` and an `alias`'s text; a command `docker run` (`podman run`, `nerdctl run`) runs in a container is read with the folders of this machine it binds writable (`-v /:/host`, `--mount type=bind`) and the devices it is given (`--device /dev/sda:/dev/xvda`) for its paths under them, and its other paths as the container's own; `nsenter -t 1` in a container that sees this machine's processes (`--privileged`, `--pid=host`) runs what follows on this machine, and is read so. " +
			"Variables the line sets are read with their values (`x=/; rm -rf $x`, `for d in /usr /etc; do rm -rf \"$d\"; done`, " +
			"`a=rm; $a -rf /`, splitting at `IFS`, `set -- rm -rf /; \"$@\"`, `${x%/}`, `$(echo /)`); where the line may or may not set one " +
			"(`if …; then d=/; fi`), each value it may hold. Code given to an interpreter on its command line (`python3 -c`, `perl -e`, " +
			"`ruby -e`, `node -e`, `php -r`, an `awk` program, or fed in: `perl <<EOF`) is read for what it hands to a shell (`os.system(\"…\")`, `subprocess.run([…])`, `system(\"…\")`, " +
			"backticks, `execSync(\"…\")`) and for its recursive deletes of a literal path (`shutil.rmtree(\"/\")`, `FileUtils.rm_rf`, " +
			"`fs.rmSync`, `rmtree`) or of the home folder as the language names it (`Path.home()`, `os.homedir()`, `Dir.home`, " +
			"`$ENV{HOME}`, `os.path.expanduser(\"~/x\")`, literal parts joined on: `Path.home() / \"x\"`); a script the line writes with text it shows and then runs (`echo '…' > x.sh && bash x.sh`, " +
			"`source`, `./x.sh`, `sh < x.sh`). `rsync --delete` into one of these folders, `rsync --remove-source-files` and " +
			"`tar --remove-files` of one. " +
			"A delete whose target is known only at run time answers unsure (ask) " +
			"when, with its variables empty, it would reach one of these (`rm -rf \"$DIR\"/`, `rm -rf ~/$X`), and so does " +
			"`rm -rf *` in a folder known only at run time (`cd \"$X\"; rm -rf *`), a recursive delete or a program that `xargs` or `parallel` " +
			"takes from its input (`… | xargs rm -rf`, `… | xargs -I{} bash -c {}`), a program known only at run time given one of these " +
			"folders (`$CMD -rf /`, `\"$(which rm)\" -rf /`; what it is given with `-c` is read, as it may be a shell: `$SHELL -c '…'`), " +
			"a program decoded only when it runs (`curl … | base64 -d | sh`, " +
			"`eval \"$(… | xxd -r -p)\"`; a literal the line decodes is read as what it decodes to: `echo cm0gLXJmIC8= | base64 -d | sh`, " +
			"`rm -rf \"$(echo L3Vzcg== | base64 -d)\"`, `xxd -r -p`, `rev`); so does a line that cannot be read to its end. " +
			"Home folders are known by their path too (`/home/NAME`, `/Users/NAME` and the folders right in them). Emptying a temp folder " +
			"(`rm -rf /var/tmp/*`) is not reported. " +
			"A PowerShell tool's line (Claude Code's `PowerShell`, Copilot CLI's `powershell`) is read as PowerShell: `Remove-Item` and its aliases " +
			"(`rm`, `del`, `erase`, `ri`, `rd`, `rmdir`) with `-Recurse` (`-r`) read as `rm -r`, `Move-Item` as `mv`, parameters abbreviated or not; " +
			"`cmd /c rd /s` and `del /s`; `Format-Volume`, `Clear-Disk`, `Initialize-Disk`, `Remove-Partition`; drive roots (`C:\\`, `C:\\*`), " +
			"`C:\\Windows`, `C:\\Program Files`, `C:\\ProgramData`, `C:\\Users` and the folders right in them, a home folder " +
			"(`C:\\Users\\NAME`, `$env:USERPROFILE`, `~`) and its Documents, Desktop, Downloads, AppData and the like; " +
			"variables the line sets to a string (`$p = \"C:\\\"; Remove-Item -Recurse $p`) read with it, `$env:SystemRoot`, `%windir%`, " +
			"`%USERPROFILE%` and the like as the folders they name by default; `Get-ChildItem -Recurse C:\\ | Remove-Item` and " +
			"`robocopy … /MIR` into one of these folders; " +
			"`powershell -Command`, `-EncodedCommand`, `iex '…'`, `Start-Process` and `cmd /c` are read in turn, and a path piped into " +
			"`Remove-Item -Recurse` answers unsure, as do `iex $x`, `$(…)`, script blocks in expressions, .NET calls and keywords " +
			"(`if`, `foreach`, `function`), which the reading does not follow.",
		Misses: "deletes whose target is known only at run time and not vital when empty (`rm -rf \"$DIR\"`, `rm -rf $DIR/build`), " +
			"deletes of single files or of folders deeper than one level under a system folder (`/usr/local/lib/x`) or the home folder " +
			"(`~/src/old`), destruction through other programs (`git clean` outside the project, `python3 cleanup.py`), interpreter code " +
			"that builds its paths or commands (`shutil.rmtree(base + \"/x\")`, `os.system(f\"rm -rf {d}\")`) or deletes by other calls, " +
			"variables set by a sourced file or by a function the line does not define, " +
			"programs known only at run time (`eval \"$X\"`, `bash -c \"$(…)\"`, `bash < script.sh`) and what a script run by the command does; " +
			"in PowerShell, `Remove-Item $_` in a `ForEach-Object` block, permission changes (`icacls`, `takeown`, `Set-Acl`), " +
			"`del` without `/s` of a system folder's files, `diskpart` and `format`.",
		Params: []Param{{"allow_paths", "array of globs", "paths never reported, e.g. `[\"/var/tmp/**\", \"~/scratch\"]`; `**` spans folders"}},
		Denied: []Example{
			{Tool: event.ToolShell, Text: "rm -rf /"},
			{Tool: event.ToolShell, Text: "rm -rf ~"},
			{Tool: event.ToolShell, Text: "rm -fr $HOME/*"},
			{Tool: event.ToolShell, Text: "sudo rm -r --no-preserve-root /"},
			{Tool: event.ToolShell, Text: "npm test && rm -rf /usr"},
			{Tool: event.ToolShell, Text: "bash -c 'cd / && rm -rf *'"},
			{Tool: event.ToolShell, Text: "rm -rf ../../..", Notes: "from /home/u/project: /"},
			{Tool: event.ToolShell, Text: `rm -rf "$(dirname "$PWD")"`, Notes: "from /home/u/project: the home folder"},
			{Tool: event.ToolShell, Text: "docker run --rm -v /:/host alpine rm -rf /host/usr"},
			{Tool: event.ToolShell, Text: "find / -name '*.log' -delete"},
			{Tool: event.ToolShell, Text: "dd if=/dev/zero of=/dev/sda bs=1M"},
			{Tool: event.ToolShell, Text: "sudo mkfs.ext4 /dev/nvme0n1p1"},
			{Tool: event.ToolShell, Text: ":(){ :|:& };:"},
			{Tool: event.ToolShell, Text: "chmod -R 777 /"},
			{Tool: event.ToolShell, Text: "sudo chown -R me /etc"},
			{Tool: event.ToolShell, Text: "echo $(rm -rf ~/Documents)"},
			{Tool: event.ToolShell, Text: "rm -rf /*/*"},
			{Tool: event.ToolShell, Text: "rm -rf /{usr,etc}"},
			{Tool: event.ToolShell, Text: "rm --rec --no-pres /"},
			{Tool: event.ToolShell, Text: "find -L / -delete"},
			{Tool: event.ToolShell, Text: "env -C / rm -rf *"},
			{Tool: event.ToolShell, Text: `$'\x72\x6d' -rf /`},
			{Tool: event.ToolShell, Text: "f() { :; }; rm -rf /"},
			{Tool: event.ToolShell, Text: "trap 'rm -rf /' EXIT"},
			{Tool: event.ToolShell, Text: "echo 'rm -rf ~' | bash"},
			{Tool: event.ToolShell, Text: "busybox rm -rf /"},
			{Tool: event.ToolShell, Text: "rm -rf ~/D*"},
			{Tool: event.ToolShell, Text: "x=/; rm -rf $x"},
			{Tool: event.ToolShell, Text: `for d in /usr /etc; do rm -rf "$d"; done`},
			{Tool: event.ToolShell, Text: `python3 -c "import shutil; shutil.rmtree('/')"`},
			{Tool: event.ToolShell, Text: `perl -e 'system("rm -rf ~")'`},
			{Tool: event.ToolShell, Text: "rsync -a --delete empty/ ~/"},
			{Tool: event.ToolShell, Text: `Remove-Item -Recurse -Force C:\`, Shell: event.ShellPowerShell, Notes: "PowerShell"},
			{Tool: event.ToolShell, Text: `rm -r -fo $env:USERPROFILE\Documents`, Shell: event.ShellPowerShell, Notes: "PowerShell"},
			{Tool: event.ToolShell, Text: `cmd /c "rd /s /q C:\Windows"`, Shell: event.ShellPowerShell, Notes: "PowerShell"},
		},
		Allowed: []Example{
			{Tool: event.ToolShell, Text: "rm -rf ./build"},
			{Tool: event.ToolShell, Text: "rm -rf node_modules dist"},
			{Tool: event.ToolShell, Text: "rm -rf /home/u/project/target"},
			{Tool: event.ToolShell, Text: `rm -rf "$(pwd)/dist"`},
			{Tool: event.ToolShell, Text: "docker run --rm alpine rm -rf /"},
			{Tool: event.ToolShell, Text: `docker run --rm -v "$PWD":/app -w /app node:20 sh -c 'rm -rf node_modules && npm ci'`},
			{Tool: event.ToolShell, Text: "echo 'rm -rf /'"},
			{Tool: event.ToolShell, Text: `git commit -m "guard against rm -rf /"`},
			{Tool: event.ToolShell, Text: "git commit -m 'explain `rm -rf /`'"},
			{Tool: event.ToolShell, Text: "grep -r 'rm -rf /' docs"},
			{Tool: event.ToolShell, Text: "rm -rf /tmp/build-cache"},
			{Tool: event.ToolShell, Text: "rm -rf ~/.cache/pip"},
			{Tool: event.ToolShell, Text: "dd if=disk.img of=backup.img"},
			{Tool: event.ToolShell, Text: "chmod -R 755 ./scripts"},
			{Tool: event.ToolShell, Text: "(cd /tmp); rm -rf child"},
			{Tool: event.ToolShell, Text: `rm -rf "$BUILD_DIR"`},
			{Tool: event.ToolShell, Text: `for d in build dist; do rm -rf "$d"; done`},
			{Tool: event.ToolShell, Text: `python3 -c "import shutil; shutil.rmtree('build')"`},
			{Tool: event.ToolShell, Text: "find . -name '*.pyc' -delete"},
			{Tool: event.ToolShell, Text: "rm -rf /var/tmp/x", With: `{"allow_paths": ["/var/tmp/**"]}`},
			{Tool: event.ToolShell, Text: `Remove-Item -Recurse -Force .\build`, Shell: event.ShellPowerShell, Notes: "PowerShell"},
			{Tool: event.ToolShell, Text: `echo 'Remove-Item -Recurse C:\'`, Shell: event.ShellPowerShell, Notes: "PowerShell"},
		},
	},
	compile: func(p *params) (func(ev *event.Event) string, error) {
		allow := p.strs("allow_paths")
		p.checkGlobs("allow_paths", allow)
		g := compileGlobs(allow)
		return func(ev *event.Event) string { return destructive(ev, g) }, nil
	},
}

// systemDirs are the folders whose loss breaks the machine: the folder, its
// contents and the folders right in it are protected.
var systemDirs = []string{
	"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/snap", "/nix",
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/private", "/cores",
}

// homeSpare are folders right in the home folder that hold only caches.
var homeSpare = []string{".cache", ".npm", ".yarn", ".pnpm-store", ".Trash"}

func destructive(ev *event.Event, allow globs) string {
	if ev.Tool == nil || ev.Tool.Name != event.ToolShell {
		return ""
	}
	if forkBomb(ev.Tool.Command) {
		return "a fork bomb exhausts the machine's processes"
	}
	runs := shellOf(ev)
	project := ev.ProjectDir
	if project == "" {
		project = ev.Cwd
	}
	var doubt string
	for i := range runs {
		f := destroys(i, runs, project, allow)
		if f == "" {
			continue
		}
		if !strings.HasPrefix(f, unsure) {
			return f
		}
		if doubt == "" {
			doubt = f
		}
	}
	return doubt
}

// Long options of the programs read here, for longOption.
var (
	rmLongs    = []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", "help", "version"}
	chmodLongs = []string{"changes", "silent", "quiet", "verbose", "dereference", "no-dereference", "from", "no-preserve-root", "preserve-root", "reference", "recursive", "help", "version"}
)

// recursive reports whether args (after the program) ask for recursion,
// and whether --no-preserve-root is among them; long options may be
// abbreviated as getopt_long allows.
func recursive(args, longs []string) (rec, noPreserve bool) {
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case strings.HasPrefix(a, "--"):
			name, _ := longOption(a, longs)
			rec = rec || name == "recursive"
			noPreserve = noPreserve || name == "no-preserve-root"
		case len(a) > 1 && a[0] == '-':
			rec = rec || strings.ContainsAny(a[1:], "rR")
		}
	}
	return rec, noPreserve
}

// destroys says what a simple command would destroy, or "", or an unsure
// finding when what it deletes is known only at run time and could be
// vital.
func destroys(at int, runs []shellRun, project string, allow globs) string {
	r := runs[at]
	c := r.cmd
	name := c.Name()
	args := c.Args
	if len(args) == 0 {
		return ""
	}
	if c.Program != "" && (slices.Contains(c.Via, "xargs") || slices.Contains(c.Via, "parallel")) {
		return unsure + said(c) + " runs commands it reads from its input when it runs; check them by hand"
	}
	if c.Program != "" {
		if d := decoded(runs, at); d != "" {
			return unsure + said(c) + " runs a program that " + d + " decodes only when it runs; check it by hand"
		}
	}
	if c.Dynamic[0] {
		// The program is known only when the line runs (`$CMD -rf /`,
		// `"$(which rm)" -rf /`, `"$@"`): what it does to a vital folder
		// it is given is not known either.
		var given []string
		for i := 1; i < len(args); i++ {
			if t := args[i]; !c.Dynamic[i] && t != "" && t != "--" && !(len(t) > 1 && t[0] == '-') {
				given = append(given, t)
			}
		}
		if why := vitalPath(given, r.cwd, project, allow); why != "" {
			return unsure + said(c) + " runs a program known only when it runs, on " + why + "; check it by hand"
		}
		return ""
	}
	danger := func(cwd string, idx []int) string {
		for _, i := range idx {
			if i < 0 { // find's default starting point
				if cwd != "" {
					if why := vital(expand(".", cwd), project); why != "" && !allow.match(expand(".", cwd)) {
						return said(c) + " would " + verb(name) + " " + why
					}
				}
				continue
			}
			t := args[i]
			if c.Dynamic[i] {
				// Known only at run time: unsure if, with its expansions
				// empty, it names a vital folder (`"$DIR"/`, `~/$X`).
				u := c.Unset[i]
				if why := windowsVital(u, cwd, project); why != "" && !allow.match(u) {
					return unsure + said(c) + " deletes a path known only when it runs; if its variables are empty it would " + verb(name) + " " + why
				}
				if u == "" || cwd == "" && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "~") && !strings.HasPrefix(u, "$HOME") {
					continue
				}
				if p := expand(u, cwd); !allow.match(p) {
					if why := vital(p, project); why != "" {
						return unsure + said(c) + " deletes a path known only when it runs; if its variables are empty it would " + verb(name) + " " + why
					}
				}
				continue
			}
			if why := windowsVital(t, cwd, project); why != "" && !allow.match(t) {
				return said(c) + " would " + verb(name) + " " + why
			}
			if cwd == "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") && !strings.HasPrefix(t, "$HOME") {
				// The folder is known only at run time.
				if t == "*" || t == "." || t == ".*" || t == ".." || strings.HasPrefix(t, "../") {
					return unsure + said(c) + " runs in a folder known only at run time; check it by hand"
				}
				continue
			}
			p := expand(t, cwd)
			if allow.match(p) {
				continue
			}
			if why := vital(p, project); why != "" {
				return said(c) + " would " + verb(name) + " " + why
			}
		}
		return ""
	}
	ops := operandIndexes(args)
	switch {
	case name == "rm":
		rec, noPreserve := recursive(args[1:], rmLongs)
		if noPreserve {
			return said(c) + " deletes from the root folder"
		}
		if rec {
			if f := danger(r.cwd, ops); f != "" || !fromInput(c, ops) {
				return f
			}
			return unsure + said(c) + " deletes paths it reads from its input when it runs; check them by hand"
		}
		if slices.Contains(c.Via, "pipeline") {
			// Get-ChildItem -Recurse C:\ | Remove-Item: each file and
			// folder the listing finds, the whole tree.
			if lister := recursiveLister(runs, at); lister >= 0 {
				lr := runs[lister]
				listed := lr.cmd.Text
				if listed == "" {
					listed = strings.Join(lr.cmd.Args, " ")
				}
				if why := vitalPath(operandsSkipping(lr.cmd.Args[1:], psListValued...), lr.cwd, project, allow); why != "" {
					return said(c) + " would delete everything in " + why + " that " + shown(listed) + " lists"
				}
			}
		}
	case name == "robocopy":
		// robocopy SRC DEST /MIR (or /PURGE): DEST ends up holding only
		// what SRC holds.
		mirror := slices.ContainsFunc(args[1:], func(a string) bool {
			a = strings.ToLower(a)
			return a == "/mir" || a == "/purge"
		})
		if mirror && len(ops) >= 2 {
			if why := vitalPath([]string{args[ops[1]]}, r.cwd, project, allow); why != "" {
				return said(c) + " would delete from " + why + " whatever its source does not hold"
			}
		}
	case name == "chmod" || name == "chown" || name == "chgrp":
		if rec, _ := recursive(args[1:], chmodLongs); rec && len(ops) > 1 {
			return danger(r.cwd, ops[1:]) // the mode or owner comes first
		}
	case name == "mv":
		if len(ops) > 1 {
			return danger(r.cwd, ops[:len(ops)-1])
		}
	case name == "find":
		roots := findRoots(args)
		deletes := slices.Contains(args, "-delete")
		for _, o := range runs {
			// What find -exec runs on each file found: a delete there
			// deletes the whole tree.
			if o.cmd.Parent != at || len(o.cmd.Via) == 0 {
				continue
			}
			switch o.cmd.Name() {
			case "rm", "rmdir", "unlink", "shred":
				// find -exec rm, or a shell it runs that deletes the file
				// found (find -exec sh -c 'rm -rf "$1"' _ {} \;).
				direct := o.cmd.Via[len(o.cmd.Via)-1] == "find -exec"
				inShell := slices.Contains(o.cmd.Via, "find -exec") && slices.ContainsFunc(o.cmd.Args[1:], func(a string) bool {
					return strings.Contains(a, "{}")
				})
				deletes = deletes || direct || inShell
			}
		}
		if deletes {
			if f := danger(r.cwd, roots); f != "" {
				return f
			}
			return deletesOutside(c, r.cwd, roots, project, allow)
		}
	case name == "rsync":
		if f := rsyncDelete(c, r.cwd, project, allow); f != "" {
			return f
		}
	case name == "tar" || name == "bsdtar" || name == "gtar":
		if f := tarRemove(c, r.cwd, project, allow); f != "" {
			return f
		}
	case name == "dd":
		for _, a := range args[1:] {
			if of, ok := strings.CutPrefix(a, "of="); ok && blockDevice(of) {
				return said(c) + " overwrites the disk " + of
			}
		}
	case name == "format-volume" || name == "clear-disk" || name == "initialize-disk" || name == "remove-partition":
		// PowerShell's Storage cmdlets, as its reading names them.
		return said(c) + " erases a disk"
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "newfs" || name == "mkswap":
		return said(c) + " formats a disk"
	case name == "diskutil":
		for _, a := range args[1:] {
			switch strings.ToLower(a) {
			case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase":
				return said(c) + " erases a disk"
			}
		}
	case name == "shred" || name == "wipefs" || name == "blkdiscard" || name == "fdisk" || name == "sfdisk" ||
		name == "parted" || name == "gdisk" || name == "sgdisk" || name == "cfdisk":
		for _, i := range ops {
			if blockDevice(args[i]) {
				return said(c) + " overwrites the disk " + args[i]
			}
		}
	}
	for _, rd := range c.Redirects {
		if strings.Contains(rd.Op, ">") && blockDevice(rd.Target) {
			return said(c) + " > " + rd.Target + " overwrites the disk"
		}
	}
	return ""
}

// deletesOutside says which starting point of a find that deletes what
// it finds lies outside the project: anywhere but the project, the temp
// folders and the home folder's caches, a find -delete is a recursive
// delete of someone else's files.
func deletesOutside(c shellcmd.Command, cwd string, roots []int, project string, allow globs) string {
	if project == "" || cwd == "" {
		return ""
	}
	for _, i := range roots {
		t := "."
		if i >= 0 {
			if c.Dynamic[i] {
				continue
			}
			t = c.Args[i]
		}
		p := expand(t, cwd)
		if allow.match(p) || temp().match(p) || under(p, clean(project)) {
			continue
		}
		if rest, ok := strings.CutPrefix(p, home+"/"); ok {
			first, _, _ := strings.Cut(rest, "/")
			if slices.Contains(homeSpare, first) {
				continue
			}
		}
		return said(c) + " would delete files outside the project, in " + p
	}
	return ""
}

// temp matches the temp folders, split on first use (a sync.Once, not
// sync.OnceValue, whose closure every process would allocate at start).
func temp() globs {
	tempOnce.Do(func() { tempGlobs = compileGlobs(tempDirs()) })
	return tempGlobs
}

var (
	tempOnce  sync.Once
	tempGlobs globs
)

// operandIndexes are the indexes in args of the operands (args[0] is the
// program): the words that are not options, and all words after "--".
func operandIndexes(args []string) []int {
	var out []int
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for j := i + 1; j < len(args); j++ {
				out = append(out, j)
			}
			break
		}
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, i)
	}
	return out
}

// findRoots are the indexes of the starting points of a find: after its
// options -H, -L, -P, -D debugopts, -Olevel, up to the first expression.
func findRoots(args []string) []int {
	i := 1
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O"):
			i++
			continue
		case a == "-D":
			i += 2
			continue
		case a == "--":
			i++
		}
		break
	}
	var roots []int
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "!" || a == "(" {
			break
		}
		roots = append(roots, i)
	}
	if len(roots) == 0 {
		return []int{-1} // "."
	}
	return roots
}

// decoded names the decoder whose output the command at runs as a
// program (`echo cm0gLXJmIC8K | base64 -d | sh`, `eval "$(… | xxd -r -p)"`),
// or "": such a program hides what it does from any reading of the line.
func decoded(runs []shellRun, at int) string {
	c := runs[at].cmd
	for i, r := range runs {
		d := r.cmd
		feeds := i < at && d.Pipeline == c.Pipeline && d.Parent == c.Parent && c.Program == shellcmd.ProgramStdin
		if (feeds || within(runs, i, at)) && decoder(d) {
			return "`" + d.Name() + "`"
		}
	}
	return ""
}

// within reports whether command i runs in a substitution in the words
// of command at (a few levels down at most: a decoder deeper than that
// is not looked for).
func within(runs []shellRun, i, at int) bool {
	p := runs[i].cmd.Parent
	for range 4 {
		if p < 0 || p >= i {
			return false
		}
		if p == at {
			return true
		}
		p = runs[p].cmd.Parent
	}
	return false
}

// decoder reports whether a command turns its input into another text
// that only running it shows: base64 -d, xxd -r, gunzip and the like.
func decoder(c shellcmd.Command) bool {
	short, long := flags(c.Args[1:])
	switch c.Name() {
	case "base64", "base32", "basenc", "gbase64":
		return strings.ContainsAny(short, "dD") || slices.Contains(long, "decode")
	case "xxd":
		return strings.Contains(short, "r") || slices.Contains(long, "revert")
	case "openssl":
		return slices.Contains(c.Args, "-d") || slices.Contains(c.Args, "base64") && slices.Contains(c.Args, "-d")
	case "gzip", "bzip2", "xz", "zstd", "lz4", "brotli":
		return strings.Contains(short, "d") || slices.Contains(long, "decompress")
	case "uudecode", "gunzip", "zcat", "bunzip2", "bzcat", "unxz", "xzcat", "unzstd", "zstdcat", "rev":
		return true
	}
	return false
}

// psListValued are Get-ChildItem's parameters that take a value.
var psListValued = []string{"-filter", "-include", "-exclude", "-depth", "-attributes"}

// recursiveLister is the command before at in its pipeline that lists a
// tree (Get-ChildItem -Recurse, ls -R), or -1.
func recursiveLister(runs []shellRun, at int) int {
	c := runs[at].cmd
	for i := at - 1; i >= 0; i-- {
		l := runs[i].cmd
		if l.Pipeline != c.Pipeline {
			continue
		}
		switch l.Name() {
		case "get-childitem", "gci", "dir", "ls", "childitem":
		default:
			continue
		}
		recurse := false
		for _, a := range l.Args[1:] {
			switch a := strings.ToLower(a); {
			case a == "-filter" || a == "-include" || a == "-exclude":
				return -1 // some files of the tree, not the tree
			case a == "-r" || len(a) >= 4 && strings.HasPrefix("-recurse", a) || a == "--recursive":
				recurse = true
			}
		}
		if recurse {
			return i
		}
	}
	return -1
}

// tarValued are tar's options that take the next word as their value.
var tarValued = []string{"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
	"-b", "--blocking-factor", "-H", "--format", "-I", "--use-compress-program", "-N", "--newer", "-g",
	"--listed-incremental", "-K", "--starting-file", "-L", "--tape-length", "-V", "--label", "--exclude",
	"--owner", "--group", "--mode", "--mtime", "--transform", "--xform", "--checkpoint-action"}

// tarRemove is what `tar --remove-files` destroys: the files it archives,
// deleted once in the archive.
func tarRemove(c shellcmd.Command, cwd, project string, allow globs) string {
	if !slices.Contains(c.Args[1:], "--remove-files") {
		return ""
	}
	args := c.Args[1:]
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		// tar cf x.tar …: the first word bundles options, f's value next.
		skip := 1 + strings.Count(args[0], "f") + strings.Count(args[0], "C") + strings.Count(args[0], "T")
		args = args[min(skip, len(args)):]
	}
	if why := vitalPath(operandsSkipping(args, tarValued...), cwd, project, allow); why != "" {
		return said(c) + " would delete " + why + " once archived"
	}
	return ""
}

// vitalPath is why the first of paths that is vital is, or "".
func vitalPath(paths []string, cwd, project string, allow globs) string {
	for _, t := range paths {
		if why := windowsVital(t, cwd, project); why != "" && !allow.match(t) {
			return why // C:\Users\dev, a Windows path
		}
		if cwd == "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") && !strings.HasPrefix(t, "$HOME") {
			continue
		}
		if len(t) > 1 {
			t = strings.TrimSuffix(t, "/")
		}
		if p := expand(t, cwd); !allow.match(p) {
			if why := vital(p, project); why != "" {
				return why
			}
		}
	}
	return ""
}

// rsyncValued are rsync's options that take the next word as their value.
var rsyncValued = []string{"-e", "--rsh", "-f", "--filter", "--exclude", "--include", "--exclude-from", "--include-from",
	"--files-from", "-T", "--temp-dir", "--backup-dir", "--suffix", "--partial-dir", "--log-file", "--password-file",
	"--chmod", "--chown", "--usermap", "--groupmap", "--timeout", "--bwlimit", "--max-size", "--min-size", "--port",
	"--compare-dest", "--copy-dest", "--link-dest", "-B", "--block-size", "--out-format", "--rsync-path", "--info",
	"--debug", "-M", "--remote-option", "--iconv", "--max-delete", "--modify-window", "--contimeout", "--sockopts"}

// rsyncDelete is what `rsync --delete SRC… DEST` destroys: DEST ends up
// holding only what the sources hold (`rsync -a --delete empty/ /`
// empties the root folder), so a vital DEST on this machine is reported.
func rsyncDelete(c shellcmd.Command, cwd, project string, allow globs) string {
	deletes := false
	for _, a := range c.Args[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--del") {
			deletes = true
		}
	}
	ops := operandsSkipping(c.Args[1:], rsyncValued...)
	if len(ops) < 2 {
		return ""
	}
	if slices.Contains(c.Args[1:], "--remove-source-files") {
		// The sources' files go once copied.
		if why := vitalPath(ops[:len(ops)-1], cwd, project, allow); why != "" {
			return said(c) + " would delete the files of " + why
		}
	}
	if !deletes {
		return ""
	}
	dest := ops[len(ops)-1]
	if host, _, remote := strings.Cut(dest, ":"); remote && !strings.Contains(host, "/") || strings.HasPrefix(dest, "rsync://") {
		return "" // another machine's folder
	}
	if why := vitalPath([]string{dest}, cwd, project, allow); why != "" {
		return said(c) + " would delete from " + why + " whatever its source does not hold"
	}
	return ""
}

func verb(name string) string {
	switch name {
	case "rm", "find":
		return "delete"
	case "mv":
		return "move"
	}
	return "change the permissions of"
}

// userHome is the home folder of the user hookshim runs as, where the
// environment says it; paths are compared in slash form.
func userHome() string {
	homeOnce.Do(func() {
		if h, err := os.UserHomeDir(); err == nil && h != "" {
			homeDir = clean(filepath.ToSlash(h))
		}
	})
	return homeDir
}

var (
	homeOnce sync.Once
	homeDir  string
)

// vital says why deleting p breaks the machine or loses the user's data,
// or "" when it does not. p is expanded. The project folder is spared,
// unless it is the root, a system folder or a home folder: the exemption
// never covers the home folder or what holds the project, however the
// project is named.
func vital(p, project string) string {
	if project = clean(project); spared(project) && under(p, project) {
		return ""
	}
	if strings.ContainsAny(p, "*?[") {
		if why := globVital(p); why != "" {
			return why
		}
	}
	if dir, file := path2(p); file == "*" || file == ".*" {
		if tempDir(dir) {
			return "" // emptying a temp folder is what it is for
		}
		p = dir
	}
	if why := homeByForm(p); why != "" {
		return why
	}
	if h := userHome(); h != "" && h != "/" {
		switch rest, in := strings.CutPrefix(p, h+"/"); {
		case p == h:
			return "your home folder"
		case in && !strings.Contains(rest, "/") && !slices.Contains(homeSpare, rest):
			return p + ", a folder of your home folder"
		}
	}
	switch {
	case p == "/" || p == "":
		return "the root folder"
	case p == home:
		return "your home folder"
	case p == aboveHome:
		return "the folder that holds your home folder"
	case strings.HasPrefix(p, "~") && !strings.Contains(p, "/"):
		return "a home folder"
	case strings.HasPrefix(p, home+"/"):
		rest := strings.TrimPrefix(p, home+"/")
		if !strings.Contains(rest, "/") && !slices.Contains(homeSpare, rest) {
			return p + ", a folder of your home folder"
		}
	case project != "" && strings.HasPrefix(p, "/") && p != project && under(project, p):
		return p + ", a folder that holds the project"
	}
	for _, d := range systemDirs {
		if p == d {
			return "the system folder " + d
		}
		if rest, ok := strings.CutPrefix(p, d+"/"); ok && !strings.Contains(rest, "/") {
			return "the system folder " + p
		}
	}
	return ""
}

// fromInput says whether a command takes more of its arguments from its
// input when it runs: xargs appends them or puts them in place of its
// placeholder, and so does GNU parallel with no ::: list (its operands then
// stop at the command's own, or hold {}).
func fromInput(c shellcmd.Command, ops []int) bool {
	switch {
	case slices.Contains(c.Via, "xargs"), slices.Contains(c.Via, "pipeline"):
		return true
	case slices.Contains(c.Via, "parallel"):
		if len(ops) == 0 {
			return true
		}
		for _, i := range ops {
			if strings.Contains(c.Args[i], "{}") {
				return true
			}
		}
	}
	return false
}

// homeByForm names a home folder, or a folder right in one, known by its
// path's form (/home/NAME, /Users/NAME, /var/home/NAME): the agent may run
// as another user than the one whose home it deletes, and the event carries
// no $HOME to compare with.
func homeByForm(p string) string {
	for _, homes := range []string{"/home/", "/Users/", "/var/home/"} {
		rest, ok := strings.CutPrefix(p, homes)
		if !ok || rest == "" {
			continue
		}
		user, sub, deeper := strings.Cut(rest, "/")
		switch {
		case !deeper || sub == "":
			return homes + user + ", a home folder"
		case !strings.Contains(sub, "/") && !slices.Contains(homeSpare, sub):
			return p + ", a folder of the home folder " + homes + user
		}
	}
	return ""
}

// systemTemp are the system's temp folders, whose contents any program may
// delete.
var systemTemp = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm"}

func tempDir(p string) bool { return slices.Contains(systemTemp, p) }

// spared reports whether the project folder's exemption applies: not to
// the root, a system folder or a home folder.
func spared(project string) bool {
	switch {
	case project == "" || project == "/" || project == home || project == userHome() || slices.Contains(systemDirs, project):
		return false
	case project == "/root":
		return false
	}
	for _, homes := range []string{"/home/", "/Users/", "/var/home/"} {
		if rest, ok := strings.CutPrefix(project, homes); ok && !strings.Contains(rest, "/") {
			return false
		}
	}
	return true
}

// globVital says why a glob reaches a vital folder: its literal start is
// the root, the home folder or a system folder, and what follows matches
// a system folder, a folder right in one or in the home folder, or
// everything under them (`/*/*`, `/u*`, `/usr/l*`, `~/D*`, `/usr/*/*`).
func globVital(p string) string {
	parts := strings.Split(p, "/")
	lit := 0
	for lit < len(parts) && !strings.ContainsAny(parts[lit], "*?[") {
		lit++
	}
	prefix, after := strings.Join(parts[:lit], "/"), parts[lit:]
	allPatterns := !slices.ContainsFunc(after, func(s string) bool { return !strings.ContainsAny(s, "*?[") })
	switch {
	case prefix == "": // /PATTERN…
		if after[0] == "*" || after[0] == ".*" && len(after) == 1 {
			return "the root folder"
		}
		if len(after) > 2 && !allPatterns {
			return ""
		}
		for _, d := range systemDirs {
			if ok, _ := path.Match(after[0], d[1:]); ok {
				return "the system folders " + p + " matches (" + d + ")"
			}
		}
	case prefix == home || prefix == userHome() && prefix != "":
		if (len(after) == 1 || allPatterns) && after[0] != ".*" {
			return p + ", folders of your home folder"
		}
	case slices.Contains(systemDirs, prefix):
		if len(after) == 1 || allPatterns {
			return "the system folders " + p + " matches"
		}
	}
	return ""
}

// path2 splits a path into its folder and last element.
func path2(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	if i == 0 {
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// blockDevice reports whether a path names a disk or a partition.
func blockDevice(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/")
	if !ok {
		return false
	}
	for _, d := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop", "sr"} {
		if strings.HasPrefix(rest, d) {
			return true
		}
	}
	return false
}

// forkBomb finds a shell function that calls itself twice through a pipe
// in the background, as in :(){ :|:& };: — the text is searched with the
// blanks removed, so that the bomb is found also where it is quoted for a
// shell the line starts.
func forkBomb(line string) bool {
	if !strings.Contains(line, "(") {
		return false
	}
	s := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return -1
		}
		return r
	}, line)
	for off := 0; ; {
		i := strings.Index(s[off:], "(){")
		if i < 0 {
			return false
		}
		i += off
		j := i
		for j > 0 && (s[j-1] == ':' || s[j-1] == '_' || s[j-1] == '.' || isAlnum(s[j-1])) {
			j--
		}
		name := s[j:i]
		body := s[i+3:]
		if name != "" && (strings.HasPrefix(body, name+"|"+name+"&") || strings.HasPrefix(body, name+"&"+name+"&")) {
			return true
		}
		off = i + 3
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// windowsSystem are the folders of a Windows drive whose loss breaks the
// machine: the folder and the folders right in it are protected.
var windowsSystem = []string{"windows", "program files", "program files (x86)", "programdata", "users", "recovery", "boot"}

// windowsHomeKept are the folders right in a Windows home folder that hold
// the user's data.
var windowsHomeKept = []string{"documents", "desktop", "downloads", "pictures", "music", "videos", "appdata", "onedrive", "source", ".ssh"}

// windowsVital says why deleting t, a path on a Windows drive (C:/x, as
// PowerShell's reading writes it) or relative to a folder on one, breaks
// the machine or loses the user's data, or "". The project folder is
// spared when it is none of these.
func windowsVital(t, cwd, project string) string {
	p := t
	if !winDrive(t) {
		if !winDrive(cwd) || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") || strings.HasPrefix(t, "$") {
			return ""
		}
		p = cwd + "/" + t
	}
	drive := strings.ToUpper(p[:2])
	rest := path.Clean("/" + strings.ReplaceAll(p[2:], `\`, "/"))
	if proj := strings.ReplaceAll(project, `\`, "/"); winDrive(proj) && strings.EqualFold(proj[:2], drive) {
		if pr := path.Clean("/" + proj[2:]); pr != "/" && windowsVital(proj, "", "") == "" && under(strings.ToLower(rest), strings.ToLower(pr)) {
			return ""
		}
	}
	if rest == "/" {
		return "the root folder of drive " + drive
	}
	comps := strings.Split(strings.ToLower(rest[1:]), "/")
	if strings.ContainsAny(comps[0], "*?[") {
		return drive + rest + ", which reaches the root folder of drive " + drive
	}
	if !slices.Contains(windowsSystem, comps[0]) {
		return ""
	}
	switch {
	case len(comps) == 1 || len(comps) == 2 && comps[0] != "users":
		return "the system folder " + drive + rest
	case comps[0] == "users" && len(comps) == 2:
		return "the home folder " + drive + rest
	case comps[0] == "users" && len(comps) == 3 && (slices.Contains(windowsHomeKept, comps[2]) || strings.ContainsAny(comps[2], "*?[")):
		return drive + rest + ", a home folder's own"
	case len(comps) == 2 && strings.ContainsAny(comps[1], "*?["):
		return "what the system folder " + drive + "/" + comps[0] + " holds"
	}
	return ""
}

// winDrive reports whether p starts with a drive letter and a colon.
func winDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}
