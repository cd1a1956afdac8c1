"""The live tables' realtime side: the sockets (`consumers`), who is connected and which server
processes are alive (`presence`, `servers`), the sockets' frame limits (`flood`), the worker
processes that run their moves (`move_pool`) and the committed events sent to every viewer
(`broadcast`). What a move does to a table is `gameplay.services`; what each viewer may see is
`gameplay.protocol`."""
