"""Source watchers: notice new public records about the run and queue them for a curator.

    fetch.py            the only network boundary: configured URLs only, conditional,
                        bounded, rate-limit aware; httpx errors become WatcherError here
    waits.py            when a source says to come back (Retry-After, resets), bounded
    watcher.py          the Watcher protocol: a configured URL, its query, a payload parser
    github_comments.py  new comments on an issue (#8506 status log, #8435 plan)
    github_commits.py   new commits, optionally touching one path
    github_search.py    new issues / PRs naming the run (search API)
    huggingface.py      new models of an organization on the Hub
    feed.py             new blog posts (Atom / RSS feed, or a blog index page)
    page.py             a page whose text changed (the W&B report)
    markup.py           visible text and links of an HTML page
    registry.py         which watcher reads which configured URL
    rules.py            which watch points and claims a finding may bear on
    signal.py           Finding (what a watcher saw) and Signal (what a curator reviews)
    cycle.py            one cycle over every source: backoff, baseline, dedupe, store
    deadline.py         hosts side by side, a host's sources in turn, all within a deadline
    loop.py             build a runner from the knowledge base; the loop ``serve`` runs
    review.py           the queue as the digest and ``/signals`` show it

A watcher never changes a claim or its confidence: ``bot.curator`` does, when a person says so.
"""
