"""The Ray instance DoneCheck starts listens on loopback only (issue 15): every
listening socket of the processes this test session's instance started."""

from __future__ import annotations

import ipaddress

import psutil
import pytest

pytestmark = pytest.mark.ray


def _loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def test_the_embedded_instance_listens_on_loopback_only(dc: object) -> None:
    import ray

    assert ray.util.get_node_ip_address() == "127.0.0.1"
    ours = {p.pid for p in psutil.Process().children(recursive=True)}
    listening = [
        (c.laddr.ip, c.laddr.port, c.pid)
        for c in psutil.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN and c.pid in ours
    ]
    names = {pid: psutil.Process(pid).name() for _, _, pid in listening}
    assert any("gcs" in name for name in names.values()), names  # the test can see them
    outside = [(ip, port, names[pid]) for ip, port, pid in listening if not _loopback(ip)]
    assert outside == [], f"listening beyond loopback: {outside}"
