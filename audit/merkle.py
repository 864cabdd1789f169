"""The audit trail as a Merkle tree, as Certificate Transparency keeps its log (RFC 9162,
section 2.1): leaves hashed with a 0x00 prefix, nodes with 0x01, inclusion and consistency
proofs made and checked by the RFC's algorithms.

Plain Python over bytes: nothing here knows Django. A leaf's input is an audit entry's chain
hash (32 bytes), which covers the entry's content and, through the chain, every entry before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    k = 1
    while k << 1 < n:
        k <<= 1
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of the leaf hashes (already hashed with ``leaf_hash``)."""
    return _mth(leaves, 0, len(leaves)) if leaves else EMPTY_ROOT


def _mth(leaves: Sequence[bytes], a: int, b: int) -> bytes:
    if b - a == 1:
        return leaves[a]
    k = _split(b - a)
    return node_hash(_mth(leaves, a, a + k), _mth(leaves, a + k, b))


# A function giving MTH(D[a:b]) for a range of the tree: from the leaves, or from a stored
# frontier and the leaves appended since.
RangeHash = Callable[[int, int], bytes]


def leaves_range(leaves: Sequence[bytes]) -> RangeHash:
    """MTH of any range of ``leaves``, each subtree hashed once however many proofs ask for it
    (the proofs of many entries of one tree share their upper nodes)."""
    known: dict[tuple[int, int], bytes] = {}

    def mth(a: int, b: int) -> bytes:
        if b - a == 1:
            return leaves[a]
        found = known.get((a, b))
        if found is None:
            k = _split(b - a)
            found = known[(a, b)] = node_hash(mth(a, a + k), mth(a + k, b))
        return found

    return mth


def inclusion_proof(index: int, size: int, mth: RangeHash) -> list[bytes]:
    """PATH(m, D[n]) (RFC 9162 2.1.3.1) for leaf ``index`` in the tree of ``size`` leaves."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path: list[bytes] = []
    a, b, m = 0, size, index
    while b - a > 1:
        k = _split(b - a)
        if m - a < k:
            path.append(mth(a + k, b))
            b = a + k
        else:
            path.append(mth(a, a + k))
            a = a + k
    path.reverse()
    return path


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def consistency_proof(first: int, second: int, mth: RangeHash) -> list[bytes]:
    """PROOF(m, D[n]) (RFC 9162 2.1.4.1): the tree of ``first`` leaves is a prefix of the tree of
    ``second``."""
    if not 0 < first <= second:
        raise ValueError(f"no consistency proof from {first} to {second}")
    proof: list[bytes] = []
    a, b, m, whole = 0, second, first, True
    tail: list[bytes] = []
    while True:
        if m == b - a:
            if not whole:
                proof.append(mth(a, b))
            break
        k = _split(b - a)
        if m <= k:
            tail.append(mth(a + k, b))
            b = a + k
        else:
            tail.append(mth(a, a + k))
            a, m, whole = a + k, m - k, False
    return proof + tail[::-1]


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2."""
    if first == second:
        return not proof and first_root == second_root
    if not 0 < first < second or not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0


def frontier_sizes(size: int) -> list[int]:
    """The sizes of the perfect subtrees a tree of ``size`` leaves is made of, largest first."""
    return [1 << bit for bit in range(size.bit_length() - 1, -1, -1) if size >> bit & 1]


class Frontier:
    """The perfect subtrees of a tree, largest first: enough to compute its root and to append.
    A stored frontier is trusted only once ``root()`` gives the signed root (then, SHA-256 being
    collision resistant, it is the signed tree's)."""

    def __init__(self, nodes: Sequence[bytes] = (), size: int = 0):
        self.sizes = frontier_sizes(size)
        if len(self.sizes) != len(nodes):
            raise ValueError(f"a tree of {size} leaves has {len(self.sizes)} perfect subtrees, not {len(nodes)}")
        self.nodes = list(nodes)
        self.size = size

    def append(self, leaf: bytes) -> None:
        self.sizes.append(1)
        self.nodes.append(leaf)
        self.size += 1
        while len(self.sizes) > 1 and self.sizes[-1] == self.sizes[-2]:
            right, left = self.nodes.pop(), self.nodes.pop()
            size = self.sizes.pop() + self.sizes.pop()
            self.nodes.append(node_hash(left, right))
            self.sizes.append(size)

    def root(self) -> bytes:
        if not self.nodes:
            return EMPTY_ROOT
        r = self.nodes[-1]
        for node in reversed(self.nodes[:-1]):
            r = node_hash(node, r)
        return r

    def copy(self) -> Frontier:
        return Frontier(self.nodes, self.size)

    def extended(self, leaves: Sequence[bytes]) -> RangeHash:
        """MTH of a range of this tree with ``leaves`` appended, for a consistency proof from this
        tree to the longer one: a range within this tree is always a run of its perfect subtrees
        (RFC 9162's SUBPROOF asks for no other), a range after it is made of the new leaves."""
        starts, start = {}, 0
        for index, size in enumerate(self.sizes):
            starts[start] = index
            start += size
        m = self.size

        def mth(a: int, b: int) -> bytes:
            if b <= m:
                first, nodes, at = starts[a], [], a
                while at < b:
                    index = starts[at]
                    nodes.append(self.nodes[index])
                    at += self.sizes[index]
                if at != b or starts[a] != first:
                    raise ValueError(f"the range {a}-{b} is not a run of perfect subtrees")
                r = nodes[-1]
                for node in reversed(nodes[:-1]):
                    r = node_hash(node, r)
                return r
            if a >= m:
                return _mth(leaves, a - m, b - m)
            k = _split(b - a)
            return node_hash(mth(a, a + k), mth(a + k, b))

        return mth


def frontier_from(leaves: Sequence[bytes]) -> Frontier:
    frontier = Frontier()
    for leaf in leaves:
        frontier.append(leaf)
    return frontier
