"""The benchmarks: each module measures one thing beside its peer in the same run and prints the
figures through `bench.harness`. Run one from the checkout's root: `python -m bench.NAME`."""
