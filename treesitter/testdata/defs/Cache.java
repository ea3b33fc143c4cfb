package com.example;

import java.util.Map;

@Service
public class Cache<K, V> implements Store<K, V> {
    private static final int MAX = 100;
    private final Map<K, V> map, backup;

    public Cache() {
        this.map = new HashMap<>();
    }

    @Override
    public V get(K key) {
        return map.get(key);
    }

    static class Entry {
        int hits;
        void touch() { hits++; }
    }

    enum Policy {
        LRU, LFU;
        boolean evicts() { return true; }
    }
}

interface Store<K, V> {
    int LIMIT = 5;
    V get(K key);
}

record Pair(int a, int b) {}
