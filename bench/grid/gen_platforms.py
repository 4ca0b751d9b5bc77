#!/usr/bin/env python3
"""Writes the link-level platforms of the model accuracy table (bench/grid/accuracy.sh) and of
the oracle harness (bench/grid/oracle.sh) into
bench/grid/platforms/: hetcoll-platform/2 documents whose routes name the links flows share.
The generated files are committed; run this only to change them:
    python3 bench/grid/gen_platforms.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def matrix_links(name, sites, nic_bw, nic_lat, uplink, pair):
    """sites: [(site, nodes)]; uplink[site] = (bw, lat, sharing); pair[(a, b)] = (bw, lat,
    sharing) for a < b, one link per site pair carrying both directions. Route between sites:
    NIC up, uplink a, pair link, uplink b, NIC down; inside a site: NIC up, NIC down."""
    nodes, site_of = [], {}
    for s, n in sites:
        for i in range(n):
            nodes.append(f"{s}-{i}")
            site_of[f"{s}-{i}"] = s
    links = [{"name": f"{v}-nic", "bandwidth_Bps": nic_bw, "latency_s": nic_lat / 2,
              "sharing": "splitduplex"} for v in nodes]
    for s, _ in sites:
        bw, lat, sh = uplink[s]
        links.append({"name": f"{s}-uplink", "bandwidth_Bps": bw, "latency_s": lat, "sharing": sh})
    names = [s for s, _ in sites]
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            bw, lat, sh = pair[(names[a], names[b])]
            links.append({"name": f"wan-{names[a]}-{names[b]}", "bandwidth_Bps": bw,
                          "latency_s": lat, "sharing": sh})
    routes = []
    for u in nodes:
        for v in nodes:
            if u == v:
                continue
            a, b = site_of[u], site_of[v]
            if a == b:
                hops = [f"{u}-nic:up", f"{v}-nic:down"]
            else:
                x, y = sorted([a, b], key=names.index)
                hops = [f"{u}-nic:up", f"{a}-uplink", f"wan-{x}-{y}", f"{b}-uplink", f"{v}-nic:down"]
            routes.append({"src": u, "dst": v, "links": hops})
    return {"format": "hetcoll-platform/2", "name": name,
            "nodes": [{"name": v, "cluster": site_of[v]} for v in nodes],
            "links": links, "routes": routes}


def write(doc, fname):
    with open(os.path.join(HERE, "platforms", fname), "w") as f:
        json.dump(doc, f, indent=None, separators=(", ", ": "))
        f.write("\n")


# GUSTO (Bhat et al. 2003, Tables 1-2): 5 sites, 4 nodes each on 100 Mb/s; each site's WAN
# traffic crosses one uplink shared by both directions, as fast as the site's fastest pair;
# each site pair its own path with the table's latency and bandwidth.
G = ["AMES", "ANL", "IND", "USC-ISI", "NCSA"]
GL = {("AMES", "ANL"): (6.4e4, 0.0345), ("AMES", "IND"): (3.075e4, 0.0895),
      ("AMES", "USC-ISI"): (2.555e5, 0.012), ("AMES", "NCSA"): (4.888e4, 0.042),
      ("ANL", "IND"): (6.138e4, 0.02), ("ANL", "USC-ISI"): (8.662e4, 0.0265),
      ("ANL", "NCSA"): (3.002e5, 0.0045), ("IND", "USC-ISI"): (3.888e4, 0.0425),
      ("IND", "NCSA"): (5.6e4, 0.0215), ("USC-ISI", "NCSA"): (6.22e5, 0.0295)}
up = {s: (max(bw for (a, b), (bw, _) in GL.items() if s in (a, b)), 0.0, "shared") for s in G}
write(matrix_links("gusto-links", [(s, 4) for s in G], 1.25e7, 1e-4, up,
                   {k: (bw, lat, "fatpipe") for k, (bw, lat) in GL.items()}),
      "gusto-links.json")

# Grid'5000 (Barchet-Steffenel & Mounie 2007, Table 3): three sites of 8 nodes on 1 Gb/s,
# the table's inter-site latencies; each site's 10 Gb/s uplink shared by both directions.
S3 = [("C1", 8), ("C2", 8), ("C3", 8)]
L3 = {("C1", "C2"): 0.01218, ("C1", "C3"): 0.005211, ("C2", "C3"): 0.005388}
write(matrix_links("grid5000-links", S3, 1.25e8, 4.8e-5,
                   {s: (1.25e9, 0.0, "shared") for s, _ in S3},
                   {k: (1.25e9, lat, "fatpipe") for k, lat in L3.items()}),
      "grid5000-links.json")

# Uneven sites (the oracle harness, bench/grid/oracle.sh): the 3-site grid of random:sites
# (split-duplex 1 Gb/s NICs of 25 us, one 100 Mb/s, 5 ms uplink per site shared by both
# directions, a fat-pipe backbone: 10 ms between sites) with 24, 20 and 12 nodes, ranks
# numbered round-robin across the sites that still have nodes (interleaved, as interleave=1).
def sites_links(name, sizes, nic_bw=1.25e8, nic_lat=2.5e-5, up_bw=1.25e7, up_lat=5e-3):
    order, left, idx = [], list(sizes), [0] * len(sizes)
    while any(left):
        for s in range(len(sizes)):
            if left[s]:
                order.append((s, idx[s]))
                idx[s] += 1
                left[s] -= 1
    nodes = [f"S{s}-{i}" for s, i in order]
    site_of = {f"S{s}-{i}": s for s, i in order}
    links = [{"name": f"{v}-nic", "bandwidth_Bps": nic_bw, "latency_s": nic_lat,
              "sharing": "splitduplex"} for v in nodes]
    links += [{"name": f"S{s}-uplink", "bandwidth_Bps": up_bw, "latency_s": up_lat,
               "sharing": "shared"} for s in range(len(sizes))]
    links.append({"name": "backbone", "bandwidth_Bps": 1e12, "latency_s": 0.0,
                  "sharing": "fatpipe"})
    routes = []
    for u in nodes:
        for v in nodes:
            if u == v:
                continue
            a, b = site_of[u], site_of[v]
            hops = [f"{u}-nic:up", f"{v}-nic:down"] if a == b else \
                [f"{u}-nic:up", f"S{a}-uplink", "backbone", f"S{b}-uplink", f"{v}-nic:down"]
            routes.append({"src": u, "dst": v, "links": hops})
    return {"format": "hetcoll-platform/2", "name": name,
            "nodes": [{"name": v, "cluster": f"S{site_of[v]}"} for v in nodes],
            "links": links, "routes": routes}


write(sites_links("sites-uneven", [24, 20, 12]), "sites-uneven.json")
