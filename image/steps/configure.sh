#!/bin/sh
# Step "configure", run inside the image's tree (steps/in-root.sh): the tray set up as the Pi
# would set it up, then the system made safe and ready for its first boot.
set -eu
tray=/opt/tinker-tray
cd "$tray"

# lgpio, the pins' library: PyPI has no wheel of it for trixie's Python 3.13 and Debian no
# python3-lgpio, so it is compiled here from lgpio's own source with its C library inside
# (PYPI=1, as its wheels are built), Debian's swig lent for the build only. It goes into the
# system's Python (/usr/local), which every release slot's venv sees (./tinker makes them with
# --system-site-packages on a Pi): an update installs no lgpio of its own, and compiles none.
# Without it the tray would start on no pins. (The recipe caches it: build.sh puts a cached one
# in /usr/local first.)
site=/usr/local/lib/python$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages
build_lgpio() {
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends swig >/dev/null
  PYPI=1 .venv/bin/python -m pip install --quiet --no-cache-dir --no-binary lgpio \
    --target "$site" "lgpio>=0.2"
  apt-get purge -y -qq --autoremove swig >/dev/null
}

# The runtime venv first (pure: no engine yet), then the compiled engine (mypyc, emulated: the
# slow part) with lgpio compiled beside it: each is one emulated compiler at a time, and a
# build machine has two cores (a build from nothing: 8 minutes less). An engine that did not
# compile stops the build (a Pi would have run it as pure Python).
TINKER_TRAY_PURE=1 ./tinker --version
lgpio=
if ! python3 -c 'import lgpio' 2>/dev/null; then
  build_lgpio >/tmp/lgpio.log 2>&1 &
  lgpio=$!
fi
TINKER_TRAY_JOBS=2 ./tinker --version  # (the engine's C two files at a time: setup.py, JOBS)
.venv/bin/python -c 'import engine, sys; sys.exit(engine.BUILD != "compiled")' || {
  tail -20 .venv/mypyc.log; echo "the compiled engine did not build (above)." >&2; exit 1; }
rm -rf build/temp.* .venv/pip.log  # the compiler's objects; the .so files stay
if [ -n "$lgpio" ] && ! wait "$lgpio"; then
  cat /tmp/lgpio.log; echo "lgpio did not build (above)." >&2; exit 1
fi
rm -f /tmp/lgpio.log
.venv/bin/python -c 'import lgpio' || { echo "lgpio did not build (above)." >&2; exit 1; }

# The service: its unit, user, udev rules and settings (tinker-tray install, no live system),
# the user made now (systemd-sysusers), the units enabled offline.
.venv/bin/tinker-tray install --root /
systemd-sysusers
systemctl enable tinker-tray.service tinker-tray-update.path tinker-tray-update-card.service \
  tinker-tray-settings.service tinker-tray-imager.service tinker-tray-restore.service \
  tinker-tray-growfs.service tinker-tray-ssh.service NetworkManager.service avahi-daemon.service \
  systemd-timesyncd.service
systemctl disable ssh.service
systemctl mask ssh.socket  # no sshd started by a connection to port 22 (bookworm's image was)
ln -sf "$tray/image/onboard/tinker-tray" /usr/local/sbin/tinker-tray

# Safe by default: root locked (no password login), no other user, SSH only with a key from the
# boot partition (its host keys made on the card's first boot, never shared between cards).
passwd --lock root
rm -f /etc/ssh/ssh_host_*

# A first boot of its own for every card: a new machine-id, the clock's last saved time.
echo uninitialized >/etc/machine-id
rm -f /var/lib/dbus/machine-id
mkdir -p /var/lib/systemd/timesync && touch /var/lib/systemd/timesync/clock

# The boot partition's files (kernel, initramfs, device trees, config.txt, cmdline.txt) from
# Debian's raspi-firmware hook, with /etc/default/raspi-firmware from image/rootfs.
kernel=$(ls /lib/modules | sort -V | tail -1)
DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware "$kernel"

apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/debconf/*-old /root/.cache
