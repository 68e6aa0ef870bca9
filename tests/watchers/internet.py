"""Every source the bundled watch points look at, as it stood before the story begins."""

from __future__ import annotations

from tests.watchers import payloads as p
from tests.watchers.web import Resource, Web


def status_log_history(count: int = 3) -> list[dict[str, object]]:
    return [
        p.comment(
            3300000000 + i,
            f"Run handoff #{i}: resumed at step {150_000 + i * 1000:,}.",
            f"2026-10-0{1 + i % 3}T12:00:00Z",
        )
        for i in range(count)
    ]


def marin_internet(web: Web) -> dict[str, Resource]:
    """Serve every configured URL; return the resources so a story can change them."""
    return {
        p.COMMENTS_8506: web.serve(p.COMMENTS_8506, []),
        p.COMMENTS_8435: web.serve(
            p.COMMENTS_8435,
            [p.comment(3200000001, "Spec: 535.3B total / 22.76B active.", "2026-08-19T12:00:00Z")],
        ),
        p.COMMITS_CURRENT_RUN: web.serve(
            p.COMMITS_CURRENT_RUN,
            [p.commit("Point CURRENT_HERO_RUN_ID at hero-main-step121638", "2026-09-18T20:00:00Z")],
        ),
        p.COMMITS_LADDER: web.serve(
            p.COMMITS_LADDER, [p.commit("Add the 4-rung scaling ladder", "2026-08-10T12:00:00Z")]
        ),
        p.COMMITS_ALL: web.serve(
            p.COMMITS_ALL,
            [
                p.commit(
                    "[infra] Preserve CoreWeave bucket access for hero-*", "2026-08-22T10:00:00Z"
                ),
                p.commit("Bump ruff", "2026-11-28T10:00:00Z"),
            ],
        ),
        p.SEARCH: web.serve(
            p.SEARCH,
            p.search(
                p.issue(9615, "Context extension for the hero run", "2026-10-01T09:00:00Z"),
                p.issue(8506, "Hero Run / Ongoing Status", "2026-08-20T01:00:00Z"),
                p.issue(8435, "[Hero Run] 535B-A23B on 18T tokens", "2026-08-18T15:00:00Z"),
            ),
        ),
        p.COMMITS_REPORTS: web.serve(
            p.COMMITS_REPORTS, [p.commit("Add hero mixture log", "2026-09-14T12:00:00Z")]
        ),
        p.HF_MODELS: web.serve(
            p.HF_MODELS,
            [
                p.hf_model("marin-community/marin-8b-base", "2025-05-19T18:00:00.000Z"),
                p.hf_model("marin-community/marin-32b-base", "2025-10-20T18:00:00.000Z"),
            ],
        ),
        p.WANDB_REPORT: web.serve(
            p.WANDB_REPORT,
            p.wandb_page("Last updated: October 3, 2026", "Loss 1.9086 at step 147,000"),
        ),
        p.BLOG: web.serve(
            p.BLOG,
            p.blog_index(
                ("huang-foundation-marin-535b-training-run", "A gift of GPUs for Marin 535B"),
                ("marin-535b-launch-note", "Marin 535B launch note"),
                ("delphi", "Delphi"),
            ),
        ),
        p.MARIN_HOME: web.serve(
            p.MARIN_HOME, "<html><title>Marin</title><p>Open lab for AI.</p></html>"
        ),
        p.TRACKER: web.serve(
            p.TRACKER, "<html><title>Hero run tracker</title><p>25.8% · step 100,845</p></html>"
        ),
        p.MARIN_DOCS: web.serve(
            p.MARIN_DOCS, "<html><title>Marin docs</title><p>Welcome.</p></html>"
        ),
    }
