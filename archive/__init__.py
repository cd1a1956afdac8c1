"""The archive of played matches: seats, deals, records, uploads and downloads, the one visibility
rule, replays and the double-dummy analysis of archived deals."""
