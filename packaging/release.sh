#!/bin/sh
# make release: the release archives of one version into dist/release/.
#
#   packaging/release.sh VERSION COMMIT DATE SBOM-TOOL PLATFORM...
#
# Each archive holds both programs, the licence, the README and the shell
# completions: hookshim_<version>_<os>_<arch>.tar.gz (.zip for Windows,
# whose users open zips with what they have). checksums.txt holds the
# SHA-256 of every file a user downloads; the SBOM (CycloneDX) lists the
# modules both programs are built from. Archives are reproducible: the
# files' times are the commit's, their owner root, their order by name.
set -eu
version=$1 commit=$2 date=$3 sbom=$4
shift 4
out=dist/release
go=${GO:-go}
ldflags="-s -w -X github.com/hookshim/hookshim/internal/buildinfo.Version=$version -X github.com/hookshim/hookshim/internal/buildinfo.Commit=$commit -X github.com/hookshim/hookshim/internal/buildinfo.Date=$date"

rm -rf "$out" && mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The completions come from a hookshim built for this machine: they are
# the same on every platform.
CGO_ENABLED=0 $go build -trimpath -o "$stage/hookshim-host" ./cmd/hookshim
mkdir -p "$stage/completions"
for sh in bash zsh fish; do
	"$stage/hookshim-host" completion "$sh" >"$stage/completions/hookshim.$sh"
done
mv "$stage/completions/hookshim.zsh" "$stage/completions/_hookshim"

for p in "$@"; do
	os=${p%/*} arch=${p#*/} ext=
	[ "$os" = windows ] && ext=.exe
	name=hookshim_${version}_${os}_${arch}
	dir=$stage/$name
	mkdir -p "$dir"
	for prog in hookshim hookshim-remote; do
		GOOS=$os GOARCH=$arch CGO_ENABLED=0 $go build -trimpath -ldflags "$ldflags" -o "$dir/$prog$ext" "./cmd/$prog"
	done
	cp LICENSE README.md "$dir/"
	cp -r "$stage/completions" "$dir/"
	find "$dir" -exec touch -d "$date" {} +
	if [ "$os" = windows ]; then
		(cd "$stage" && find "$name" | LC_ALL=C sort | zip -q -X "$OLDPWD/$out/$name.zip" -@)
	else
		tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="$date" -cf - "$name" | gzip -n >"$out/$name.tar.gz"
	fi
	echo "  $out/$name"
done

"$sbom" mod -json -output "$out/hookshim_${version}_sbom.cdx.json" .
(cd "$out" && sha256sum -- *.tar.gz *.zip *.cdx.json >checksums.txt)
echo "  $out/checksums.txt"

# The install script and the Homebrew formula point at this version's
# GitHub release (HOOKSHIM_BASE_URL moves the script elsewhere).
base=https://github.com/hookshim/hookshim/releases/download/$version
sed "s|@VERSION@|$version|" packaging/install.sh >"$out/install.sh"
sh packaging/homebrew.sh "$version" "$out/checksums.txt" "$base" >"$out/hookshim.rb"
echo "  $out/install.sh, $out/hookshim.rb"
