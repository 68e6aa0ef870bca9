"""Who we talk to and when: the platform-free core, digest, store, schedule, watchers, adapters."""
