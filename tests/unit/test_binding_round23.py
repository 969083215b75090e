"""Binding classes of issue 30's round 23 (tuning sets: urfave/negroni,
jshttp/on-finished and four sets written blind at the round's start:
felixge/httpsnoop, BurntSushi/same-file, PyCQA/mccabe, expressjs/response-time).

Each case both ways.
"""

from __future__ import annotations

from _binding import ev, unbound

# ---------------------------------------------------------- a variable named the shell's way

DETECT = ev("negroni.go::detectAddress", """\
    func detectAddress(addr ...string) string {
        if len(addr) > 0 {
            return addr[0]
        }
        if port := os.Getenv("PORT"); port != "" {
            return ":" + port
        }
        return DefaultAddress
    }
""", "go")


def test_a_variable_written_with_a_dollar_binds_where_the_code_reads_it():
    assert unbound("Address resolution: explicit arg wins, else `$PORT`, else DefaultAddress.", DETECT) == []
    # a variable the code never reads is still unbound, with its dollar or without
    assert unbound("Address resolution: explicit arg wins, else `$HOST`, else DefaultAddress.", DETECT) == ["$HOST"]
    assert unbound("Interpolation handles `$VAR`.", DETECT) == ["$VAR"]


# ---------------------------------------------------------- "non-" before a protocol or an extension

PUSH = ev("response_writer_pusher.go::responseWriter.Push", """\
    func (rw *responseWriter) Push(target string, opts *http.PushOptions) error {
        pusher, ok := rw.ResponseWriter.(http.Pusher)
        if ok {
            return pusher.Push(target, opts)
        }
        return errors.New("the ResponseWriter doesn't support the Pusher interface")
    }
""", "go")
SCRIPTS = ev("benchmark/index.js::runScripts", """\
    function runScripts (fileNames) {
      var fileName = fileNames.shift()
      if (!fileName) return
      if (!/\\.js$/i.test(fileName)) return runScripts(fileNames)
      if (fileName.toLowerCase() === 'index.js') return runScripts(fileNames)
      var fullPath = path.join(__dirname, fileName)
      spawn(process.execPath, [fullPath], { stdio: 'inherit' })
    }
""", "javascript")


def test_non_before_a_protocol_or_an_extension_is_prose_around_it():
    assert unbound("Push on a non-HTTP/2 writer doesn't panic, it returns an error.", PUSH) == []
    assert unbound("runScripts() skips non-.js files and index.js itself.", SCRIPTS) == []
    # what follows is read as it would be without "non-": a name must still bind
    assert unbound("runScripts() skips non-.ts files.", SCRIPTS) == unbound("runScripts() skips .ts files.", SCRIPTS)
    assert unbound("Push on a non-FlushWriter writer returns an error.", PUSH) == ["FlushWriter"]
    # other hyphenated words keep being read as before
    assert unbound("Push on a non-pusher writer returns an error.", PUSH) == []


# ---------------------------------------------------------- LIFO and FIFO are words, the direction rule reads them

CALL_BEFORE = ev("response_writer.go::responseWriter.callBefore", """\
    func (rw *responseWriter) callBefore() {
        for i := len(rw.beforeFuncs) - 1; i >= 0; i-- {
            rw.beforeFuncs[i](rw)
        }
    }
""", "go")


def test_lifo_and_fifo_are_prose():
    assert unbound("beforeFuncs are LIFO: callBefore walks them from the last one.", CALL_BEFORE) == []
    assert unbound("callBefore() fires the hooks FIFO.", CALL_BEFORE) == []
    # other capitals stay names
    assert unbound("callBefore() fires the hooks FIFO, like Kubernetes.", CALL_BEFORE) == ["Kubernetes"]
