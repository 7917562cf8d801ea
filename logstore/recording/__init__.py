"""Recording games at the table: the session the recorder command and the Record page share
(logstore.recording.session)."""
