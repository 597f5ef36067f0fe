#!/bin/sh
# make npm: npm packages from the release archives of dist/release/ into
# dist/npm/: one per platform (hookshim-<os>-<cpu>, with os and cpu fields,
# carrying both programs) and hookshim, whose optionalDependencies are
# those, so that npm installs only the one for the machine and downloads
# nothing at install time; its commands are npm/launcher.js.
set -eu
version=$1
# npm wants semver: v1.2.3 is 1.2.3; an untagged snapshot is 0.0.0-<describe>.
case $version in
v[0-9]*.*.*) npmver=${version#v} ;;
*) npmver=0.0.0-snapshot.$(echo "$version" | tr -c 'A-Za-z0-9\n' '.') ;;
esac
out=dist/npm
rm -rf "$out" && mkdir -p "$out/src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
deps=
for a in dist/release/hookshim_"${version}"_*; do
	case $a in *.tar.gz | *.zip) ;; *) continue ;; esac
	base=$(basename "$a")
	base=${base%.tar.gz}
	base=${base%.zip}
	plat=${base#hookshim_"${version}"_}
	os=${plat%_*} arch=${plat#*_}
	[ "$os" = windows ] && os=win32
	[ "$arch" = amd64 ] && arch=x64
	name=hookshim-$os-$arch
	dir=$out/src/$name
	mkdir -p "$dir/bin"
	case $a in
	*.zip) unzip -q -d "$tmp" "$a" ;;
	*) tar -C "$tmp" -xzf "$a" ;;
	esac
	cp "$tmp/$base"/hookshim* "$dir/bin/"
	cp LICENSE "$dir/"
	cat >"$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$npmver",
  "description": "hookshim and hookshim-remote for $os $arch (installed by the hookshim package)",
  "license": "MIT",
  "os": ["$os"],
  "cpu": ["$arch"],
  "files": ["bin", "LICENSE"],
  "preferUnplugged": true
}
JSON
	deps="$deps${deps:+,
}    \"$name\": \"$npmver\""
done
if [ -z "$deps" ]; then
	echo "npm: no release archive of $version in dist/release/: run make release" >&2
	exit 1
fi
dir=$out/src/hookshim
mkdir -p "$dir/bin"
cp npm/launcher.js "$dir/bin/hookshim.js"
cp npm/launcher.js "$dir/bin/hookshim-remote.js"
cp LICENSE README.md "$dir/"
cat >"$dir/package.json" <<JSON
{
  "name": "hookshim",
  "version": "$npmver",
  "description": "One hook binary for every AI coding tool",
  "license": "MIT",
  "bin": {
    "hookshim": "bin/hookshim.js",
    "hookshim-remote": "bin/hookshim-remote.js"
  },
  "files": ["bin", "LICENSE", "README.md"],
  "optionalDependencies": {
$deps
  }
}
JSON
for d in "$out"/src/*; do
	(cd "$out" && npm pack --silent "./src/$(basename "$d")" >/dev/null)
done
ls "$out"/*.tgz
