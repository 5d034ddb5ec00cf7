module github.com/mitos-dev/mitos-errors/tests/go

go 1.26.0

require github.com/mitos-dev/mitos-errors/go-sdk v0.0.0

replace (
	github.com/mitos-dev/mitos-errors/go-sdk => ../../go-sdk
	github.com/mitos-dev/mitos-errors/go-sdk/apierrgrpc => ../../go-sdk/apierrgrpc
)
