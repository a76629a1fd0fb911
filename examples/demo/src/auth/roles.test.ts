// Every route × every role: 403 unless allowed.
