"""Go's standard library: its import paths, and the names code qualifies with them.

Python ships its list (:data:`sys.stdlib_module_names`); Go has none a
Python program can read without a Go toolchain, so this is the list of the
standard library's importable packages (Go 1.23; ``internal`` and
``vendor`` packages left out). The write path uses it to tell the
platform's names from the library's in a claim about Go code:
``syscall.Exec`` is Go's, not the anchored ``Exec`` reached through a
package, and ``encoding/json`` named in prose is a package the anchored
code must use for the claim to be about it.
"""

from __future__ import annotations

__all__ = ["GO_STD_PATHS", "GO_STD_QUALIFIERS"]

GO_STD_PATHS: frozenset[str] = frozenset({
    "archive/tar", "archive/zip", "bufio", "bytes", "cmp", "compress/bzip2", "compress/flate", "compress/gzip",
    "compress/lzw", "compress/zlib", "container/heap", "container/list", "container/ring", "context", "crypto",
    "crypto/aes", "crypto/cipher", "crypto/des", "crypto/dsa", "crypto/ecdh", "crypto/ecdsa", "crypto/ed25519",
    "crypto/elliptic", "crypto/hkdf", "crypto/hmac", "crypto/md5", "crypto/pbkdf2", "crypto/rand", "crypto/rc4",
    "crypto/rsa", "crypto/sha1", "crypto/sha256", "crypto/sha3", "crypto/sha512", "crypto/subtle", "crypto/tls",
    "crypto/x509", "database/sql", "database/sql/driver", "debug/buildinfo", "debug/dwarf", "debug/elf",
    "debug/gosym", "debug/pe", "embed", "encoding", "encoding/ascii85", "encoding/asn1", "encoding/base32",
    "encoding/base64", "encoding/binary", "encoding/csv", "encoding/gob", "encoding/hex", "encoding/json",
    "encoding/pem", "encoding/xml", "errors", "expvar", "flag", "fmt", "go/ast", "go/build", "go/constant", "go/doc",
    "go/format", "go/importer", "go/parser", "go/printer", "go/scanner", "go/token", "go/types", "hash",
    "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash", "html", "html/template", "image",
    "image/color", "image/draw", "image/gif", "image/jpeg", "image/png", "index/suffixarray", "io", "io/fs",
    "io/ioutil", "iter", "log", "log/slog", "log/syslog", "maps", "math", "math/big", "math/bits", "math/cmplx",
    "math/rand", "math/rand/v2", "mime", "mime/multipart", "mime/quotedprintable", "net", "net/http", "net/http/cgi",
    "net/http/cookiejar", "net/http/fcgi", "net/http/httptest", "net/http/httptrace", "net/http/httputil",
    "net/http/pprof", "net/mail", "net/netip", "net/rpc", "net/rpc/jsonrpc", "net/smtp", "net/textproto", "net/url",
    "os", "os/exec", "os/signal", "os/user", "path", "path/filepath", "plugin", "reflect", "regexp", "regexp/syntax",
    "runtime", "runtime/cgo", "runtime/debug", "runtime/metrics", "runtime/pprof", "runtime/trace", "slices", "sort",
    "strconv", "strings", "structs", "sync", "sync/atomic", "syscall", "testing", "testing/fstest", "testing/iotest",
    "testing/quick", "testing/slogtest", "text/scanner", "text/tabwriter", "text/template", "text/template/parse",
    "time", "unicode", "unicode/utf16", "unicode/utf8", "unique", "unsafe", "weak",
})

#: The names Go code qualifies the standard library's members with: each path's last element (``json`` of
#: ``encoding/json``; ``rand`` of ``math/rand/v2``).
GO_STD_QUALIFIERS: frozenset[str] = frozenset(
    p.rsplit("/", 2)[-2] if p.rsplit("/", 1)[-1].startswith("v") and p.rsplit("/", 1)[-1][1:].isdigit()
    else p.rsplit("/", 1)[-1] for p in GO_STD_PATHS)
