"""Payloads shaped like the real public APIs (fields trimmed, never renamed).

GitHub REST v3 (issue comments, commits, issue search), the Hugging Face Hub models API,
an Atom feed, an RSS 2.0 feed, a blog index page and a W&B report page.
"""

from __future__ import annotations

import hashlib
import html
from typing import Any

REPO = "marin-community/marin"
API = f"https://api.github.com/repos/{REPO}"

COMMENTS_8506 = f"{API}/issues/8506/comments"
COMMENTS_8435 = f"{API}/issues/8435/comments"
COMMITS_CURRENT_RUN = f"{API}/commits?path=experiments/grug/moe_hero_ep/current_run.py"
COMMITS_LADDER = f"{API}/commits?path=experiments/grug/moe_hero_ep/launch_scaling_ladder.py"
COMMITS_REPORTS = f"{API}/commits?path=docs/reports"
COMMITS_ALL = f"{API}/commits"
SEARCH = "https://api.github.com/search/issues?q=repo:marin-community/marin+535B+OR+A23B+OR+hero+OR+GB200"
HF_MODELS = "https://huggingface.co/api/models?author=marin-community"
WANDB_REPORT = (
    "https://wandb.ai/marin-community/marin_moe/reports/"
    "535B-A23B-18T-Token-Hero-Run-Scaling-Ladder--VmlldzoxNzc2MDM5Ng"
)
BLOG = "https://openathena.ai/blog/"
MARIN_HOME = "https://marin.community/"
TRACKER = "https://mtracker.oa.dev/hero-run-535b"
MARIN_DOCS = "https://marin.readthedocs.io/"


def user(login: str, user_id: int = 1) -> dict[str, Any]:
    return {
        "login": login,
        "id": user_id,
        "node_id": "MDQ6VXNlcjE=",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{user_id}?v=4",
        "url": f"https://api.github.com/users/{login}",
        "html_url": f"https://github.com/{login}",
        "type": "User",
        "site_admin": False,
    }


def comment(
    comment_id: int,
    body: str,
    created: str,
    *,
    issue: int = 8506,
    login: str = "rjpower",
    updated: str | None = None,
) -> dict[str, Any]:
    return {
        "url": f"{API}/issues/comments/{comment_id}",
        "html_url": f"https://github.com/{REPO}/issues/{issue}#issuecomment-{comment_id}",
        "issue_url": f"{API}/issues/{issue}",
        "id": comment_id,
        "node_id": "IC_kwDOJ6Yp5M6RZz0x",
        "user": user(login),
        "created_at": created,
        "updated_at": updated or created,
        "author_association": "MEMBER",
        "body": body,
        "reactions": {"url": f"{API}/issues/comments/{comment_id}/reactions", "total_count": 0},
        "performed_via_github_app": None,
    }


def commit(
    message: str, date: str, *, login: str = "rjpower", sha: str | None = None
) -> dict[str, Any]:
    sha = sha or hashlib.sha1(message.encode()).hexdigest()
    person = {"name": login, "email": f"{login}@users.noreply.github.com", "date": date}
    return {
        "sha": sha,
        "node_id": "C_kwDOJ6Yp5NoAKDA2OTllYWY",
        "commit": {
            "author": person,
            "committer": {**person, "name": "GitHub", "email": "noreply@github.com"},
            "message": message,
            "tree": {
                "sha": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
                "url": f"{API}/git/trees/x",
            },
            "url": f"{API}/git/commits/{sha}",
            "comment_count": 0,
            "verification": {
                "verified": True,
                "reason": "valid",
                "signature": None,
                "payload": None,
            },
        },
        "url": f"{API}/commits/{sha}",
        "html_url": f"https://github.com/{REPO}/commit/{sha}",
        "comments_url": f"{API}/commits/{sha}/comments",
        "author": user(login),
        "committer": user("web-flow", 19864447),
        "parents": [{"sha": "0" * 40, "url": f"{API}/commits/{'0' * 40}"}],
    }


def issue(
    number: int, title: str, created: str, *, body: str = "", pr: bool = False
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "url": f"{API}/issues/{number}",
        "repository_url": API,
        "html_url": f"https://github.com/{REPO}/{'pull' if pr else 'issues'}/{number}",
        "id": 3_000_000_000 + number,
        "number": number,
        "title": title,
        "user": user("ClassicLarry"),
        "labels": [],
        "state": "open",
        "comments": 0,
        "created_at": created,
        "updated_at": created,
        "closed_at": None,
        "author_association": "MEMBER",
        "body": body,
        "score": 1.0,
    }
    if pr:
        item["pull_request"] = {
            "url": f"{API}/pulls/{number}",
            "html_url": f"https://github.com/{REPO}/pull/{number}",
            "merged_at": None,
        }
    return item


def search(*items: dict[str, Any]) -> dict[str, Any]:
    return {"total_count": len(items), "incomplete_results": False, "items": list(items)}


def hf_model(model_id: str, created: str, *, tags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "_id": hashlib.md5(model_id.encode()).hexdigest()[:24],
        "id": model_id,
        "likes": 3,
        "trendingScore": 0,
        "private": False,
        "downloads": 120,
        "tags": ["transformers", "safetensors", "text-generation", *tags],
        "pipeline_tag": "text-generation",
        "library_name": "transformers",
        "createdAt": created,
        "modelId": model_id,
    }


def atom_feed(*entries: tuple[str, str, str, str]) -> str:
    """entries: (slug, title, published ISO, summary HTML)."""
    body = "".join(
        f"""
  <entry>
    <title type="html">{title}</title>
    <link href="https://openathena.ai/blog/{slug}/" rel="alternate" type="text/html"/>
    <id>https://openathena.ai/blog/{slug}/</id>
    <published>{published}</published>
    <updated>{published}</updated>
    <author><name>Open Athena</name></author>
    <summary type="html">{html.escape(summary)}</summary>
  </entry>"""
        for slug, title, published, summary in entries
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Open Athena Blog</title>
  <link href="https://openathena.ai/blog/feed.xml" rel="self"/>
  <link href="https://openathena.ai/blog/"/>
  <updated>2026-11-28T00:00:00+00:00</updated>
  <id>https://openathena.ai/blog/</id>{body}
</feed>
"""


def rss_feed(*items: tuple[str, str, str, str]) -> str:
    """items: (slug, title, RFC 822 date, description HTML)."""
    body = "".join(
        f"""
    <item>
      <title>{title}</title>
      <link>https://openathena.ai/blog/{slug}/</link>
      <guid isPermaLink="true">https://openathena.ai/blog/{slug}/</guid>
      <pubDate>{date}</pubDate>
      <dc:creator>David Hall</dc:creator>
      <description><![CDATA[{description}]]></description>
    </item>"""
        for slug, title, date, description in items
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Open Athena</title>
    <link>https://openathena.ai/blog/</link>
    <description>Open Athena blog</description>{body}
  </channel>
</rss>
"""


def blog_index(*posts: tuple[str, str]) -> str:
    """posts: (slug, title). Each post is linked twice (card image and title), like real indexes."""
    cards = "".join(
        f"""
      <article class="card">
        <a href="/blog/{slug}/"><img src="/img/{slug}.png" alt=""></a>
        <h2><a href="/blog/{slug}/">{title}</a></h2>
        <a href="/blog/{slug}/#comments">comments</a>
      </article>"""
        for slug, title in posts
    )
    return f"""<!doctype html>
<html lang="en"><head><title>Blog | Open Athena</title>
<script src="/_next/static/chunks/main-3f2a9c.js"></script></head>
<body><nav><a href="/">Home</a><a href="/blog/">Blog</a><a href="/blog/tag/marin/">#marin</a>
<a href="/blog/page/2/">Older</a><a href="https://twitter.com/openathena">X</a></nav>
<main>{cards}
</main></body></html>
"""


def wandb_page(*lines: str, build: str = "a1b2c3") -> str:
    """A W&B report page: a JS app shell whose build hash changes on every deploy."""
    body = "".join(f"<p>{line}</p>" for line in lines)
    return f"""<!DOCTYPE html>
<html><head>
<title>535B-A23B 18T Token Hero Run + Scaling Ladder | marin_moe – Weights &amp; Biases</title>
<meta name="description" content="Report by Larry Dial on the Marin hero run.">
<meta property="og:title" content="535B-A23B 18T Token Hero Run + Scaling Ladder">
<link rel="stylesheet" href="/static/css/main.{build}.css">
<script>window.__WB_BUILD__ = "{build}"; window.__APOLLO_STATE__ = {{"viewer": null}};</script>
<style>.report {{ color: #333 }}</style>
</head><body><div id="root"><div class="report">{body}</div></div>
<script src="/static/js/main.{build}.js"></script>
</body></html>
"""
