"""The noop rule's fixture: "F is a (pure) no-op" where F's body does something."""

from __future__ import annotations

from _rule_cases import rule_cases

from memvet._claims import EvidenceText
from memvet._rules.noop import RULE

REMOVE = EvidenceText("storage/memory.js::MemoryStorage.prototype._removeFile", """\
MemoryStorage.prototype._removeFile = function _removeFile (req, file, cb) {
  delete file.buffer
  cb(null)
}
""", language="javascript")
DEALLOC = EvidenceText("src/lib.rs::Bump.dealloc", """\
    #[inline]
    unsafe fn dealloc(&self, ptr: NonNull<u8>, layout: Layout) {
        // If the pointer is the last allocation we made, we can reuse the bytes.
        if self.is_last_allocation(ptr) {
            let ptr = self.current_chunk_footer.get().as_ref().ptr.get();
            self.current_chunk_footer.get().as_ref().ptr.set(ptr);
        }
    }
""", language="rust")
FLUSH = EvidenceText("src/arrayvec.rs::ArrayVec.flush", """\
    #[inline]
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
""", language="rust")
DONE = EvidenceText("storage/disk.js::DiskStorage.prototype._done", """\
DiskStorage.prototype._done = function _done (req, file, cb) {
  // nothing to clean up
  return cb(null)
}
""", language="javascript")
HOOK = EvidenceText("pluggy/_hooks.py::HookImpl.noop", '''\
    def noop(self) -> None:
        """Does nothing."""
        pass
''')

FIRES = [
    ("MemoryStorage._removeFile is a pure no-op that just calls cb(null); file.buffer is left on the file.", REMOVE),
    ("Bump::dealloc is a pure no-op; space is only reclaimed by reset().", DEALLOC),
    ("`_removeFile()` is basically a noop.", REMOVE),
]

SILENT = [
    # a body that returns, passes or hands back to the callback
    ("flush() is a no-op.", FLUSH),
    ("DiskStorage._done is a no-op that calls cb(null).", DONE),
    ("noop is a no-op.", HOOK),
    # a case of it, not the whole function; another function than the anchored one
    ("Bump::dealloc is a no-op unless ptr is the last allocation.", DEALLOC),
    ("Bump::dealloc is a no-op for anything but the last allocation.", DEALLOC),
    ("alloc is a pure no-op.", DEALLOC),
]


fired, test_fires, test_does_not_fire = rule_cases(RULE, FIRES, SILENT)


def test_the_finding_shows_the_first_statement_that_does_something():
    [line] = fired("MemoryStorage._removeFile is a pure no-op.", REMOVE)
    assert line == ("the claim says `MemoryStorage._removeFile is a pure no-op`, but "
                    "storage/memory.js::MemoryStorage.prototype._removeFile says `delete file.buffer`")
