"""The tray's life after its first boot: signed releases, installed into slots of their own.

`updater.update` finds and verifies a release and sets it up beside the running one;
`updater.slots` is the switch between slots and the start-time logic that finishes or undoes it
(run with the system's python3 by the service's unit); `updater.bundle` is the update file for a
tray with no network to its origin. docs/release.md says how a maintainer signs a release, and
docs/image.md how a family updates.
"""
