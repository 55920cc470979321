#!/bin/sh
# The steps of a published release that are not the image's own build and check: what
# .github/workflows/release.yml runs, each step one line there, and what a maintainer can run by
# hand (docs/release.md, Publishing a release). tests/image/test_release_workflow.py runs
# verify, pack and assets as they are here, on a small repository and a tiny fake image.
#
#   image/release-steps.sh verify TAG SIGNERS            the tag's SSH signature, against SIGNERS
#   image/release-steps.sh pack TAG KEY OUT [WHEELS]     the update file (tinker-tray release pack)
#   image/release-steps.sh assets TAG BUILD URL_BASE UPDATE DIR
#                                                        .img.xz, update file, SHA256SUMS, the
#                                                        Imager list, into DIR (image/release_assets.py)
#   image/release-steps.sh publish TAG DIR               DIR's files as the GitHub release of TAG
#                                                        (the gh CLI; GH_TOKEN, GH_REPO)
#
# TINKER_TRAY names the tinker-tray command for pack (default: this checkout's ./tinker, which
# sets up the runtime first); RELEASE_REPO the repository holding TAG (default: this checkout);
# RELEASE_WHEELS a folder of wheels for pack instead of PyPI's; RELEASE_ENGINE the compiled engine
# the image build wrote beside the image (BUILD/tinker-tray-TAG-BOARD.engine) for pack to carry.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
say() { echo "tinker release: $*" >&2; exit 1; }
[ $# -ge 1 ] || say "usage: image/release-steps.sh verify|pack|assets|publish ... (see its first lines)."
step=$1; shift

case "$step" in
verify)
  [ $# -eq 2 ] || say "usage: image/release-steps.sh verify TAG SIGNERS."
  tag=$1 signers=$2 where=${RELEASE_REPO:-$repo}
  case "$tag" in
    v[0-9]*) ;;
    *) say "$tag is not a release tag (vX.Y or vX.Y.Z): nothing was built or published." ;;
  esac
  [ -s "$signers" ] || say "there is no allowed-signers file at $signers (the project's" \
    "allowed_signers, on its default branch): nothing was built or published."
  if ! why=$(python3 "$here/signers.py" "$signers" 2>&1 >/dev/null); then
    printf '%s\n' "$why" >&2
    say "$signers is not an allowed-signers file (above): nothing was built or published."
  fi
  # An annotated tag object named as its ref (an old release's tag pushed under a newer name is
  # not one), signed by a key of SIGNERS for git's namespace: what a tray's update checks.
  [ "$(git -C "$where" cat-file -t "refs/tags/$tag" 2>/dev/null)" = tag ] ||
    say "the tag $tag is not a signed annotated tag (git tag -s): nothing was built or published."
  named=$(git -C "$where" cat-file tag "refs/tags/$tag" | sed -n 's/^tag //p' | head -1)
  [ "$named" = "$tag" ] ||
    say "the tag $tag was signed as '$named', not as $tag: nothing was built or published."
  if ! out=$(git -C "$where" -c gpg.format=ssh -c gpg.ssh.allowedSignersFile="$signers" \
      tag -v "$tag" 2>&1); then
    say "the tag $tag does not verify against $signers (not signed, or not by a key in it):" \
      "nothing was built or published."
  fi
  printf '%s\n' "$out" | grep -i 'good "git" signature' >&2 || true
  echo "tinker release: $tag verifies against $signers." >&2
  ;;
pack)
  [ $# -eq 3 ] || [ $# -eq 4 ] || say "usage: image/release-steps.sh pack TAG KEY OUT [WHEELS]."
  tag=$1 key=$2 out=$3 wheels=${4:-${RELEASE_WHEELS:-}}  # (no WHEELS: PyPI's, for the trays)
  [ -s "$key" ] || say "there is no update-signing key at $key (the workflow's secret" \
    "TINKER_UPDATE_KEY: docs/release.md, Publishing a release): no update file was packed."
  ${TINKER_TRAY:-"$repo/tinker"} release pack "$tag" --key "$key" --out "$out" \
    --repo "${RELEASE_REPO:-$repo}" ${wheels:+--wheels "$wheels"} \
    ${RELEASE_ENGINE:+--engine "$RELEASE_ENGINE"}
  ;;
assets)
  [ $# -eq 5 ] || say "usage: image/release-steps.sh assets TAG BUILD URL_BASE UPDATE DIR."
  tag=$1 build=$2 base=$3 update=$4 dir=$5
  # The build's one .img.xz of this tag (its name: tinker-tray-TAG-BOARD.img.xz, build.sh).
  set -- "$build"/tinker-tray-"$tag"-*.img.xz
  if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    say "$build holds no single tinker-tray-$tag-*.img.xz (built with --xz?): nothing to publish."
  fi
  PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}" python3 -m image.release_assets "$1" \
    --update "$update" --url-base "$base" --out "$dir"
  ;;
publish)
  [ $# -eq 2 ] || say "usage: image/release-steps.sh publish TAG DIR."
  tag=$1 dir=$2
  # A draft first, made public once every file is on it: Imager's list at
  # releases/latest/download/ never names an image that is not there yet.
  if ! gh release view "$tag" >/dev/null 2>&1; then
    gh release create "$tag" --verify-tag --draft --title "tinker-tray $tag" \
      --notes "The SD-card image, its SHA256SUMS, Raspberry Pi Imager's list and the update file of $tag (docs/release.md)."
  fi
  gh release upload "$tag" "$dir"/* --clobber
  gh release edit "$tag" --draft=false
  names=; for file in "$dir"/*; do names="$names ${file##*/}"; done
  echo "tinker release: $tag published:$names." >&2
  ;;
*) say "no step '$step' (verify, pack, assets, publish)." ;;
esac
