"""TLS is a config switch: a throw-away CA and broker certificate made with ``openssl``, a real
Mosquitto with a TLS listener on a free port, a table publishing and the club server receiving
through it; a wrong CA (or a missing client certificate where the broker asks for one) is
refused with a message naming the broker, the CA and the fix; ``bgtable club serve`` exits 2
with it.  Skipped only where mosquitto or openssl is missing and this is not CI."""
from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import replace
from pathlib import Path

import pytest

from referee.table.club.broker import BrokerError, PahoBroker
from referee.table.club.config import SERVER_USER, Club, ClubConfigError, ClubLink
from referee.table.club.messages import Message, topic
from referee.table.club.mosquitto import Certificates, LocalBroker, make_certificates, mosquitto_path

pytestmark = pytest.mark.slow
if (mosquitto_path() is None or shutil.which("openssl") is None) and not os.environ.get("CI"):
    pytest.skip("mosquitto or openssl is not installed (CI installs both)", allow_module_level=True)
pytest.importorskip("paho.mqtt") if not os.environ.get("CI") else None


def tls_club(certs: Certificates, require_certificate: bool = False) -> Club:
    return Club.from_toml({"club": {"name": "rv", "director": "dir", "director_password": "dpw",
                                    "server_password": "spw", "tls": True, "port": 8883, "ca_file": str(certs.ca),
                                    "broker_cert": str(certs.broker_cert), "broker_key": str(certs.broker_key),
                                    "require_certificate": require_certificate},
                           "tables": [{"name": "t1", "password": "pw1"}]})


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def wrong_ca(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("other-ca"), name="another club's CA")


@pytest.fixture
def broker(certs: Certificates, tmp_path: Path):
    b = LocalBroker(tls_club(certs), tmp_path / "broker")
    b.start()
    yield b
    b.stop()


def wait(cond, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not cond():
        time.sleep(0.05)
    return bool(cond())


def test_a_table_publishes_and_the_server_receives_through_tls(broker: LocalBroker, certs: Certificates) -> None:
    conf = (broker.directory / "mosquitto.conf").read_text()
    assert f"cafile {certs.ca}" in conf and f"certfile {certs.broker_cert}" in conf
    port = broker.club.port
    got: list[tuple[str, bytes]] = []
    server = PahoBroker("127.0.0.1", port, SERVER_USER, "spw", client_id="rv-server", tls=True, ca_file=str(certs.ca))
    table = PahoBroker("127.0.0.1", port, "t1", "pw1", client_id="rv-t1", tls=True, ca_file=str(certs.ca))
    try:
        assert server.wait_failure(10) == "" and table.wait_failure(10) == ""
        server.subscribe("bgtable/rv/#", lambda t, p: got.append((t, p)))
        assert server.wait_subscribed(10)  # the broker granted it: what follows reaches the server
        m = Message(topic("rv", "t1", "event"), {"table": "t1", "seq": 1, "n": 0, "type": "match_start"})
        ack = table.publish(m)
        assert wait(ack.done) and wait(lambda: bool(got))
        assert got[0] == (m.topic, m.payload)
    finally:
        server.close()
        table.close()


def test_a_plain_client_gets_nothing_from_a_tls_listener(broker: LocalBroker) -> None:
    plain = PahoBroker("127.0.0.1", broker.club.port, "t1", "pw1", client_id="rv-plain")
    try:
        assert not plain.wait_connected(2)
    finally:
        plain.close()


def test_a_wrong_ca_is_refused_with_a_clear_message(broker: LocalBroker, wrong_ca: Certificates,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="bgtable.club")
    b = PahoBroker("127.0.0.1", broker.club.port, "t1", "pw1", client_id="rv-t1", tls=True,
                   ca_file=str(wrong_ca.ca))
    try:
        problem = b.wait_failure(10)
    finally:
        b.close()
    assert not b.connected and b.lasting
    assert f"127.0.0.1:{broker.club.port}" in problem
    assert "not signed by" in problem and str(wrong_ca.ca) in problem and "set ca_file" in problem
    assert any("not signed by" in r.getMessage() for r in caplog.records)  # and logged


def test_bgtable_club_serve_exits_2_on_a_wrong_ca(broker: LocalBroker, wrong_ca: Certificates, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    f = tmp_path / "club.toml"
    f.write_text(f'[club]\nname = "rv"\nbroker = "127.0.0.1"\nport = {broker.club.port}\ntls = true\n'
                 f'ca_file = "{wrong_ca.ca}"\nserver_password = "spw"\nhttp = "127.0.0.1:0"\n'
                 '[[tables]]\nname = "t1"\npassword = "pw1"\n')
    assert main(["club", "serve", "--config", str(f)]) == 2
    err = capsys.readouterr().err
    assert "not signed by" in err and "ca_file" in err


def test_a_client_certificate_when_the_broker_asks_for_one(certs: Certificates, tmp_path: Path) -> None:
    lb = LocalBroker(tls_club(certs, require_certificate=True), tmp_path / "broker")
    lb.start()
    try:
        with_cert = PahoBroker("127.0.0.1", lb.club.port, "t1", "pw1", client_id="rv-t1", tls=True,
                               ca_file=str(certs.ca), cert_file=str(certs.client_cert), key_file=str(certs.client_key))
        without = PahoBroker("127.0.0.1", lb.club.port, "t1", "pw1", client_id="rv-t1b", tls=True,
                             ca_file=str(certs.ca))
        try:
            assert with_cert.wait_failure(10) == ""
            assert not without.wait_connected(2)
        finally:
            with_cert.close()
            without.close()
    finally:
        lb.stop()


def test_the_tls_settings_are_checked(certs: Certificates, tmp_path: Path) -> None:
    link = ClubLink.from_toml({"broker": "b", "tls": True, "ca_file": str(certs.ca),
                               "cert_file": str(certs.client_cert), "key_file": str(certs.client_key)})
    assert link.tls and link.key_file == str(certs.client_key)
    with pytest.raises(ClubConfigError, match="needs both"):
        ClubLink.from_toml({"broker": "b", "tls": True, "cert_file": str(certs.client_cert)})
    with pytest.raises(ClubConfigError, match="ca_file = '/nowhere/ca.pem' does not exist"):
        ClubLink.from_toml({"broker": "b", "tls": True, "ca_file": "/nowhere/ca.pem"})
    with pytest.raises(ClubConfigError, match="broker_cert and broker_key"):
        Club.from_toml({"club": {"tls": True, "broker_cert": str(certs.broker_cert)}})
    bad = tmp_path / "not-a-cert.pem"
    bad.write_text("hello\n")
    with pytest.raises(BrokerError, match="certificate files cannot be used"):
        PahoBroker("127.0.0.1", 1, tls=True, ca_file=str(bad))
    assert replace(link, tls=False).enabled
