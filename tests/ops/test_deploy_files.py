"""deploy/: the files parse, reference files and ports that exist, and the Grafana
dashboard only queries metrics the service really exports (and shows all of them)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tarok_service.server.ops.metrics import METRIC_NAMES, Metrics

from .conftest import ROOT

DEPLOY = ROOT / "deploy"
GRPC_PORT, METRICS_PORT = 50051, 9464
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool",
                "and", "or", "unless", "offset", "inf", "nan", "le"}  # fmt: skip


def load_all(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def exported_series() -> set[str]:
    """Every series name a server's registry exposes (histograms: _bucket, _sum, _count)."""
    names = set()
    for family in Metrics().registry.collect():
        if family.type == "counter":
            names.add(f"{family.name}_total")
        elif family.type == "histogram":
            names.update(f"{family.name}{s}" for s in ("_bucket", "_sum", "_count"))
        else:
            names.add(family.name)
        names.update(sample.name for sample in family.samples)
    return names


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)  # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges
    expr = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    found = re.findall(r"(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()", expr)
    return {name for name in found if name.lower() not in PROMQL_WORDS}


def dashboard_exprs() -> list[str]:
    board = json.loads((DEPLOY / "grafana" / "dashboards" / "tarok.json").read_text())
    panels = board["panels"] + [p for row in board["panels"] for p in row.get("panels", [])]
    return [t["expr"] for p in panels for t in p.get("targets", [])]


def test_dashboard_queries_only_exported_metrics_and_covers_them_all() -> None:
    exprs = dashboard_exprs()
    assert exprs
    exported = exported_series()
    queried = set().union(*(metric_names(e) for e in exprs))
    assert queried - exported == set(), "the dashboard queries metrics nobody exports"
    shown = {n.removesuffix("_bucket").removesuffix("_sum").removesuffix("_count") for n in queried}
    bare = {n.removesuffix("_total") for n in METRIC_NAMES}
    assert bare <= {n.removesuffix("_total") for n in shown}, "metrics without a panel"


def test_promql_name_extraction() -> None:
    expr = 'histogram_quantile(0.99, sum by (le, method) (rate(x_seconds_bucket{a="b"}[5m])))'
    assert metric_names(expr) == {"x_seconds_bucket"}
    assert metric_names("sum(rate(a_total[$__rate_interval])) / clamp_min(b, 1e-9)") == {
        "a_total",
        "b",
    }


def test_grafana_provisioning_matches_compose() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    mounts = dict(v.split(":")[:2] for v in compose["services"]["grafana"]["volumes"])
    assert all((DEPLOY / host).exists() for host in mounts)
    provider = yaml.safe_load(
        (DEPLOY / "grafana" / "provisioning" / "dashboards" / "tarok.yaml").read_text()
    )
    inside = provider["providers"][0]["options"]["path"]
    host_dir = next(h for h, c in mounts.items() if c == inside)
    assert (DEPLOY / host_dir / "tarok.json").exists()
    source = yaml.safe_load(
        (DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yaml").read_text()
    )
    uid = source["datasources"][0]["uid"]
    board = json.loads((DEPLOY / "grafana" / "dashboards" / "tarok.json").read_text())
    uids = {p["datasource"]["uid"] for p in board["panels"] if "datasource" in p}
    assert uids == {uid}
    assert source["datasources"][0]["url"].endswith(":9090") and "prometheus" in compose["services"]


def test_compose_wires_replicas_lb_and_prometheus() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"pg0", "pg1", "pg2", "etcd", "nats0", "tarok", "lb", "prometheus", "grafana"} <= set(
        services
    )
    tarok = services["tarok"]
    assert tarok["deploy"]["replicas"] == 3
    assert (DEPLOY / tarok["build"]["context"] / tarok["build"]["dockerfile"]).exists()
    flags = dict(arg.split("=", 1) for arg in tarok["command"])
    assert int(flags["--port"]) == GRPC_PORT and int(flags["--metrics-port"]) == METRICS_PORT
    store = flags["--store"]
    assert store.startswith("postgresql://") and "@pg0:5432,pg1:5432,pg2:5432/" in store
    assert store.endswith("target_session_attrs=read-write")
    assert flags["--nats"].split(",") == [f"nats://nats{i}:4222" for i in range(3)]
    assert {str(GRPC_PORT), str(METRICS_PORT)} <= set(tarok["expose"])
    for node in ("pg0", "pg1", "pg2"):
        assert tarok["depends_on"][node]["condition"] == "service_healthy"
        patroni = services[node]
        assert (DEPLOY / patroni["build"]["context"] / patroni["build"]["dockerfile"]).exists()
    for name in ("lb", "prometheus", "grafana"):
        for volume in services[name].get("volumes", []):
            host = volume.split(":")[0]
            assert not host.startswith(".") or (DEPLOY / host).exists(), volume
    nginx = (DEPLOY / "nginx" / "nginx.conf").read_text()
    assert re.search(rf"grpc://tarok:{GRPC_PORT}\b", nginx) and "grpc_pass" in nginx
    assert f"{GRPC_PORT}:{GRPC_PORT}" in services["lb"]["ports"]
    assert re.search(rf"listen {GRPC_PORT} http2", nginx)
    prometheus = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    job = next(j for j in prometheus["scrape_configs"] if j["job_name"] == "tarok")
    sd = job["dns_sd_configs"][0]
    assert sd["names"] == ["tarok"] and sd["port"] == METRICS_PORT


@pytest.mark.skipif(not shutil.which("nginx"), reason="nginx is not installed")
def test_compose_nginx_config_is_valid() -> None:
    conf = DEPLOY / "nginx" / "nginx.conf"
    result = subprocess.run(["nginx", "-t", "-c", str(conf)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_dockerfile_is_multi_stage_non_root_with_grpc_health_check() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert len(re.findall(r"^FROM ", text, re.M)) >= 2
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert "tarok_service.server.transport.healthcheck" in text and "HEALTHCHECK" in text
    assert re.search(rf"^EXPOSE {GRPC_PORT} {METRICS_PORT}$", text, re.M)
    for line in re.findall(r"^COPY (?!--from)(.+)$", text, re.M):
        for source in line.split()[:-1]:
            assert (ROOT / source).exists(), source  # the build context is the repo root
    assert (ROOT / "tarok_service" / "server" / "transport" / "healthcheck.py").exists()


def by_kind(docs: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        out.setdefault(doc["kind"], []).append(doc)
    return out


def test_k8s_manifests_reference_each_other() -> None:
    kust = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    docs = [d for name in kust["resources"] for d in load_all(DEPLOY / "k8s" / name)]
    assert {p.name for p in (DEPLOY / "k8s").glob("*.yaml")} == {
        *kust["resources"],
        "kustomization.yaml",
    }
    kinds = by_kind(docs)
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
            "ConfigMap", "Secret", "ServiceMonitor"} <= set(kinds)  # fmt: skip
    deploy = kinds["Deployment"][0]
    pod = deploy["spec"]["template"]
    labels = pod["metadata"]["labels"]
    assert deploy["spec"]["selector"]["matchLabels"].items() <= labels.items()
    container = pod["spec"]["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": GRPC_PORT, "metrics": METRICS_PORT}
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["grpc"]["port"] == GRPC_PORT
    assert {"cpu", "memory"} <= set(container["resources"]["limits"])
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
    # $(VAR) in args must come from the ConfigMap / Secret the container reads.
    config = {c["metadata"]["name"]: c["data"] for c in kinds["ConfigMap"]}
    secrets = {s["metadata"]["name"]: s["stringData"] for s in kinds["Secret"]}
    env: dict[str, str] = {}
    for source in container["envFrom"]:
        if "configMapRef" in source:
            env.update(config[source["configMapRef"]["name"]])
        else:
            env.update(secrets[source["secretRef"]["name"]])
    flags = dict(arg.split("=", 1) for arg in container["args"])
    assert set(re.findall(r"\$\((\w+)\)", " ".join(container["args"]))) <= set(env)
    assert "TAROK_SECRET" in env and int(flags["--port"]) == GRPC_PORT
    assert int(flags["--metrics-port"]) == METRICS_PORT
    drain, grace = float(env["TAROK_DRAIN_SECONDS"]), float(env["TAROK_GRACE_SECONDS"])
    assert pod["spec"]["terminationGracePeriodSeconds"] > drain + grace
    # Services, HPA, PDB and ServiceMonitor point at the Deployment's pods and ports.
    for service in kinds["Service"]:
        assert service["spec"]["selector"].items() <= labels.items()
        assert {p["targetPort"] for p in service["spec"]["ports"]} <= set(ports)
    hpa = kinds["HorizontalPodAutoscaler"][0]["spec"]
    assert hpa["scaleTargetRef"]["name"] == deploy["metadata"]["name"]
    assert hpa["minReplicas"] <= deploy["spec"]["replicas"] <= hpa["maxReplicas"]
    pdb = kinds["PodDisruptionBudget"][0]["spec"]
    assert pdb["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["minAvailable"] < hpa["minReplicas"]
    monitor = kinds["ServiceMonitor"][0]["spec"]
    watched = [
        s for s in kinds["Service"]
        if monitor["selector"]["matchLabels"].items() <= s["metadata"]["labels"].items()
        and s["metadata"]["labels"].get("app.kubernetes.io/component") != "headless"
    ]  # fmt: skip
    assert len(watched) == 1
    assert monitor["endpoints"][0]["port"] in {p["name"] for p in watched[0]["spec"]["ports"]}
