"""Fixed vocabularies in both languages: confidence levels, claim kinds, source kinds.

Kept as data beside the templates so that a level is always called the same thing (ICD 203:
fixed vocabularies, never mixed in one sentence).
"""

from __future__ import annotations

LEVEL = {
    "en": {
        "disputed": "disputed",
        "confirmed": "confirmed",
        "corroborated": "corroborated",
        "single-source": "single source",
        "indirect": "indirect evidence only",
        "no-record": "no record found",
    },
    "zh": {
        "disputed": "存在矛盾",
        "confirmed": "已确认",
        "corroborated": "多源印证",
        "single-source": "单一信源",
        "indirect": "仅间接证据",
        "no-record": "未见记录",
    },
}

SOURCE_KIND = {
    "en": {
        "social-post": "social post",
        "official-announcement": "official announcement",
        "status-log": "status log",
        "repository": "repository file",
        "tracking-report": "tracking report",
        "model-card": "model card",
        "news-relay": "news relay",
        "blog": "blog post",
        "official-website": "official website",
    },
    "zh": {
        "social-post": "社交媒体帖子",
        "official-announcement": "官方公告",
        "status-log": "状态日志",
        "repository": "仓库文件",
        "tracking-report": "跟踪报告",
        "model-card": "模型卡",
        "news-relay": "新闻转述",
        "blog": "博客文章",
        "official-website": "官方网站",
    },
}

CLAIM_KIND = {
    "en": {
        "plan": "plan",
        "status": "status",
        "result": "result",
        "spec": "spec",
        "context": "context",
        "judgment": "judgment",
        "absence": "absence",
    },
    "zh": {
        "plan": "计划",
        "status": "状态",
        "result": "结果",
        "spec": "规格",
        "context": "背景",
        "judgment": "判断",
        "absence": "未见记录",
    },
}


def level(lang: str, value: str) -> str:
    return LEVEL[lang][value]


def source_kind(lang: str, value: str) -> str:
    return SOURCE_KIND[lang][value]
