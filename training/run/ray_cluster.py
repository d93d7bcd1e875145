"""Ray for the jobs that outgrow one machine (the arena's games, self-play actors): one
clear error where Ray is missing, joining or starting a cluster, and a loopback cluster of
several nodes on this machine for the tests and benchmarks.

Ray is imported only inside these functions (``pip install 'meeplezoo[ray]'``).
"""

from __future__ import annotations


def import_ray():
    """Ray, or one clear error naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'meeplezoo[ray]'") from None
    return ray


def check_address(address: str | None) -> None:
    """``--ray``'s value: ``local``, ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``, checked
    before Ray is imported (a typo would otherwise wait on a cluster that is not there)."""
    if address in (None, "", "local", "auto"):
        return
    host, colon, port = str(address).removeprefix("ray://").rpartition(":")
    if not (colon and host and port.isdigit() and 1 <= int(port) <= 65535):
        raise ValueError(f"--ray {address!r}: give nothing (a Ray here), 'auto' (the cluster "
                         f"'ray start' made here) or a cluster's HOST:PORT")


def connect(address: str | None, cpus: int):
    """Join the cluster at ``address`` (``auto``: the one ``ray start`` made here), or start
    a local Ray with ``cpus`` CPUs.  Returns ``(ray, started_here)``."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    if address in (None, "", "local"):
        # address="local": a new Ray even where one already runs on this machine.
        ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                 configure_logging=False, _node_ip_address="127.0.0.1")
    else:
        # A cluster on this machine's loopback: the driver stays on it too (a real
        # cluster's nodes must reach the driver at the machine's own address).
        loopback = address.split(":")[0] in ("127.0.0.1", "localhost")
        ray.init(address=address, log_to_driver=False, configure_logging=False,
                 **({"_node_ip_address": "127.0.0.1"} if loopback else {}))
    return ray, True


def loopback_cluster(nodes: int):
    """A Ray cluster of ``nodes`` one-CPU nodes on this machine, all bound to 127.0.0.1
    (Ray's own multi-node test harness), for the tests and the speed benchmark.  Set
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` before ray is imported, or Ray swaps the
    loopback address for the machine's own."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False})
    for _ in range(nodes - 1):
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    return cluster
